import { BOARD_RECORD_TOPICS, readBoardRecord } from '../../../board/board-record.js';
import {
  type BrowseFilter,
  CALIBRATION_DATES,
  type CacheTopic,
  HISTORY_READ_TOPICS,
  type RecordDay,
} from '../../../cache/index.js';
import type { SettlementConfig } from '../../../contract/config.js';
import { bookEquity } from '../../../domain/book-equity.js';
import { calibrationSummary, type SettledDay } from '../../../domain/calibration-summary.js';
import type { PaneInputs, PaneStoreSpec } from '../../state/pane-store.js';
import type { Line } from '../../theme.js';
import { boardRecordLines } from './board-record-lines.js';
import { bookPnlLines } from './book-pnl-lines.js';
import { calibrationLines } from './calibration-lines.js';
import { summaryLines } from './history-summary-lines.js';

const utcDate = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/** What History's summaries are asked with: the filter, whether they show (`s`), the board record's threshold. */
export interface SummaryInputs extends PaneInputs {
  filter: BrowseFilter;
  open: boolean;
  edgeMin: number;
}

export interface SummaryParams {
  filter: BrowseFilter;
  open: boolean;
  settlement: SettlementConfig;
  edgeMin: number;
  /** The versions of the parts' topics: a part is read again only when its own tables changed. */
  versions: { summary: number; record: number; calibration: number; book: number };
  /** The service's clock: the book's P&L today and this week are of its UTC date. */
  nowMs: number;
}

/** A part's lines and what they were read at (its tables' version and its inputs). */
type Kept = { at: string; lines: Line[] } | undefined;

/** What a read of the summaries keeps for the next while they stay open: each part, and the settled days read. */
class SummaryMemo {
  book: Kept;
  summary: Kept;
  record: Kept;
  calibration: Kept;
  /** Settled days are read once while the summaries stay open (the calibration's on one filter); opening reads afresh. */
  calibrationDays = { filter: '', days: new Map<string, SettledDay>() };
  recordDays = new Map<string, RecordDay>();
}

/**
 * Each topic once: the book's realised P&L, the strategies' and locks' summaries, the settled days of the record and
 * the calibration.
 */
const SUMMARY_TOPICS: readonly CacheTopic[] = [
  ...new Set<CacheTopic>([
    ...HISTORY_READ_TOPICS.realisedParts,
    ...HISTORY_READ_TOPICS.summary,
    ...BOARD_RECORD_TOPICS,
    ...HISTORY_READ_TOPICS.calibrationDays,
  ]),
];

/**
 * History's store (state/pane-store.ts): its summaries (`s`) for the filter, read when opened and kept while they show,
 * each part (the strategies' summary, the board's record, the calibration) read again only when its own tables
 * changed, a part a step. Closed, nothing is read and nothing kept. The rows of the tables are read a window at a time
 * (use-history-state.ts), never kept.
 */
export const HISTORY_STORE: PaneStoreSpec<SummaryParams, Line[], SummaryInputs> = {
  topics: SUMMARY_TOPICS,
  ask({ filter, open, settlement, edgeMin, nowMs }, hub) {
    const versions = {
      book: hub.version(HISTORY_READ_TOPICS.realisedParts),
      summary: hub.version(HISTORY_READ_TOPICS.summary),
      record: hub.version(BOARD_RECORD_TOPICS),
      calibration: hub.version(HISTORY_READ_TOPICS.calibrationDays),
    };
    // the summaries are of the cache's settled rows, not of time travel's instant; of the clock only through the UTC
    // date that says which of the book's P&L is today's and this week's
    return {
      key: JSON.stringify([filter, open, settlement, edgeMin]),
      stamp: utcDate(nowMs),
      params: { filter, open, settlement, edgeMin, versions, nowMs },
    };
  },
  newRead() {
    let memo = new SummaryMemo();
    return function* (cache, { filter, open, settlement, edgeMin, versions, nowMs }) {
      if (!open) {
        memo = new SummaryMemo();
        return [];
      }
      // this read's memo, whatever a read of the closed summaries puts in its place meanwhile
      const m = memo;
      const filterKey = JSON.stringify(filter);
      const bookAt = `${versions.book}|${filter.cityId}|${utcDate(nowMs)}`;
      if (m.book?.at !== bookAt)
        m.book = { at: bookAt, lines: bookPnlLines(bookEquity(cache.history.realisedParts(filter)), nowMs) };
      yield;
      const summaryAt = `${versions.summary}|${filterKey}`;
      if (m.summary?.at !== summaryAt)
        m.summary = { at: summaryAt, lines: summaryLines(cache.history.summary(filter)) };
      yield;
      const recordAt = `${versions.record}|${filter.cityId}`;
      if (m.record?.at !== recordAt) {
        const record = readBoardRecord(cache, { edgeMin, settlement }, { cityId: filter.cityId, known: m.recordDays });
        m.record = { at: recordAt, lines: boardRecordLines(record, edgeMin) };
      }
      yield;
      const calibrationAt = `${versions.calibration}|${filterKey}`;
      if (m.calibration?.at !== calibrationAt) {
        if (m.calibrationDays.filter !== filterKey) m.calibrationDays = { filter: filterKey, days: new Map() };
        const dates = filter.since
          ? `${filter.since}..${filter.until ?? ''}`
          : `newest ${CALIBRATION_DATES} dates${filter.until ? ` to ${filter.until}` : ''}`;
        const days = cache.history.calibrationDays(filter, m.calibrationDays.days);
        m.calibration = {
          at: calibrationAt,
          lines: calibrationLines(calibrationSummary(days, ['mkta', 'mktb'], settlement), dates),
        };
      }
      return [...m.book.lines, [], ...m.summary.lines, [], ...m.record.lines, [], ...m.calibration.lines];
    };
  },
};
