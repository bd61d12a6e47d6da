import { useCallback, useMemo, useRef, useState } from 'react';
import { BOARD_RECORD_TOPICS, readBoardRecord } from '../../../board/board-record.js';
import {
  BROWSE_TABLES,
  type BrowseFilter,
  type BrowseKey,
  type BrowseRow,
  type BrowseTable,
  CALIBRATION_DATES,
  type Cache,
  HISTORY_READ_TOPICS,
  type RecordDay,
  topicOf,
} from '../../../cache/index.js';
import type { City } from '../../../contract/cities.js';
import { calibrationSummary, type SettledDay } from '../../../domain/calibration-summary.js';
import { useCacheQuery } from '../../hooks/use-cache-query.js';
import { type KeysetSource, type KeysetWindow, useKeysetWindow } from '../../hooks/use-keyset-window.js';
import { useCacheChanges } from '../../hooks/use-reread.js';
import { scrollStep } from '../../hooks/use-scroll-state.js';
import type { ListMove } from '../../keys.js';
import { useDeps, useUiActions, useUiState } from '../../state/monitor-context.js';
import type { Line } from '../../theme.js';
import { boardRecordLines } from './board-record-lines.js';
import { calibrationLines } from './calibration-lines.js';
import { marketDayFilter, parseHistoryFilter } from './history-filter.js';
import { summaryLines } from './history-summary-lines.js';

export interface HistoryState {
  table: BrowseTable;
  filter: BrowseFilter;
  /** The rows of `table` that match `filter`, a window `listHeight` rows tall (none while the summaries show). */
  list: KeysetWindow<BrowseRow>;
  listHeight: number;
  /** `s`: the summaries instead of the rows, and how far they are scrolled. */
  summary: boolean;
  summaryText: Line[];
  summaryOffset: number;
  /** The filter prompt is open. */
  editing: boolean;
  /** Why the last filter typed was refused. */
  error: string | null;
  stepTable(by: 1 | -1): void;
  toggleSummary(): void;
  scrollSummary(move: ListMove): void;
  editFilter(): void;
  cancelFilter(): void;
  applyFilter(text: string): void;
}

export function useHistoryState(cities: readonly City[], height: number): HistoryState {
  const { cache, settlement, edgeMin } = useDeps();
  const actions = useUiActions();
  const { historyTable: table, historyFilter: filter } = useUiState();
  const [summary, setSummary] = useState(false);
  const [editing, setEditing] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [summaryOffset, setSummaryOffset] = useState(0);
  const changes = useCacheChanges([topicOf(table)]);

  // a date with a city is that city's market day (history-filter.ts)
  const source = useMemo<KeysetSource<BrowseRow, BrowseKey>>(() => {
    const rows = marketDayFilter(filter, table, cities);
    return {
      older: (after, limit) => cache.history.older(table, rows, after, limit),
      newer: (before, limit) => cache.history.newer(table, rows, before, limit),
      keyOf: (r) => r.key,
    };
  }, [cache, table, filter, cities]);
  const listHeight = Math.max(1, height - 3);
  const list = useKeysetWindow(source, summary ? 0 : listHeight, changes);
  // computed on demand: the summaries scan every settled row that matches
  const readSummary = useCallback(
    (c: Cache) => (summary ? summaryLines(c.history.summary(filter)) : []),
    [filter, summary],
  );
  const summaries = useCacheQuery(HISTORY_READ_TOPICS.summary, readSummary);
  const known = useRef<{ filter: BrowseFilter | null; days: Map<string, SettledDay> }>({
    filter: null,
    days: new Map(),
  });
  const readCalibration = useCallback(
    (c: Cache) => {
      // a settled day is read once while the summaries stay open on this filter; opening them reads afresh
      if (!summary || known.current.filter !== filter) known.current = { filter, days: new Map() };
      if (!summary) return [];
      const dates = filter.since
        ? `${filter.since}..${filter.until ?? ''}`
        : `newest ${CALIBRATION_DATES} dates${filter.until ? ` to ${filter.until}` : ''}`;
      const days = c.history.calibrationDays(filter, known.current.days);
      return calibrationLines(calibrationSummary(days, ['mkta', 'mktb'], settlement), dates);
    },
    [filter, summary, settlement],
  );
  const calibration = useCacheQuery(HISTORY_READ_TOPICS.calibrationDays, readCalibration);
  // the board's record: every settled day of the cache, read once while the summaries stay open (as the calibration)
  const recordDays = useRef(new Map<string, RecordDay>());
  const cityId = filter.cityId;
  const readRecord = useCallback(
    (c: Cache) => {
      if (!summary) {
        recordDays.current = new Map();
        return [];
      }
      const record = readBoardRecord(c, { edgeMin, settlement }, { cityId, known: recordDays.current });
      return boardRecordLines(record, edgeMin);
    },
    [summary, cityId, edgeMin, settlement],
  );
  const record = useCacheQuery(BOARD_RECORD_TOPICS, readRecord);
  const summaryText = useMemo(
    () => [...summaries, [], ...record, [], ...calibration],
    [summaries, record, calibration],
  );

  return {
    table,
    filter,
    list,
    listHeight,
    summary,
    summaryText,
    summaryOffset,
    editing,
    error,
    stepTable(by) {
      const i = BROWSE_TABLES.indexOf(table);
      actions.setHistoryTable(BROWSE_TABLES[(i + by + BROWSE_TABLES.length) % BROWSE_TABLES.length] as BrowseTable);
    },
    toggleSummary() {
      setSummary((s) => !s);
      setSummaryOffset(0);
    },
    scrollSummary(move) {
      // Home steps back by the offset itself
      const by = scrollStep(move, listHeight) ?? -summaryOffset;
      setSummaryOffset((o) => Math.max(0, Math.min(Math.max(0, summaryText.length - listHeight), o + by)));
    },
    editFilter: () => setEditing(true),
    cancelFilter: () => setEditing(false),
    applyFilter(text) {
      const parsed = parseHistoryFilter(
        text,
        cities.map((c) => c.city_id),
      );
      setEditing(false);
      if ('error' in parsed) setError(parsed.error);
      else {
        setError(null);
        actions.setHistoryFilter(parsed.filter);
      }
    },
  };
}
