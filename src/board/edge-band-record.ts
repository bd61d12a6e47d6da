import type { Cache, Venue } from '../cache/index.js';
import { type EdgeBand, edgeBand } from '../domain/paper-trade.js';
import {
  type BoardRecordTrade,
  type RecordRules,
  type RecordTotals,
  readBoardRecord,
  recordTotals,
} from './board-record.js';

/** Fewer positions than this in a band and venue: the record says too little to quote (DESIGN 4). */
export const BAND_RECORD_MIN_POSITIONS = 10;

/**
 * DESIGN 4 "an edge's own record": what the board's record (board-record.ts, over the cache's settled days) says of
 * the edges of one band on one venue: its positions, hit rate and ROI, and the text a trader reads beside a best edge
 * or in an edge alert: `0.10-0.20 mkta: 32 pos, 28% won, ROI -40%`, or `0.10-0.20 mkta record: n < 10`.
 */
export interface EdgeBandRecord {
  band: EdgeBand;
  venue: Venue;
  totals: RecordTotals;
  text: string;
}

const wholePercent = (x: number): string => `${Math.round(x * 100)}%`;
const signedPercent = (x: number): string => `${Math.round(x * 100) > 0 ? '+' : ''}${wholePercent(x)}`;

/** The record of one band and venue from the record's trades (a kept record, or one worked out by hand). */
export function bandRecordOf(trades: readonly BoardRecordTrade[], band: EdgeBand, venue: Venue): EdgeBandRecord {
  const totals = recordTotals(trades.filter((t) => t.venue === venue && edgeBand(t.edge) === band));
  const head = `${band} ${venue}`;
  const text =
    totals.n < BAND_RECORD_MIN_POSITIONS || totals.hitRate === null || totals.roi === null
      ? `${head} record: n < ${BAND_RECORD_MIN_POSITIONS}`
      : `${head}: ${totals.n} pos, ${wholePercent(totals.hitRate)} won, ROI ${signedPercent(totals.roi)}`;
  return { band, venue, totals, text };
}

/** The record of an edge's band and venue; `edge` in price units (0.095 = 9.5 points). */
export type EdgeRecordOf = (edge: number, venue: Venue) => EdgeBandRecord;

/** The record's figures by band and venue, worked out once per version of the cache's settled days. */
interface Memo {
  version: string;
  /** This machine's clock when the version was last looked at (`recheckMs`). */
  checkedAt: number;
  trades: readonly BoardRecordTrade[];
  byKey: Map<string, EdgeBandRecord>;
}
const memos = new WeakMap<Cache, Memo>();

/**
 * How the record's version is known. `version`: the caller's own (the screen's change hub counts the record's tables:
 * no read at all); otherwise the settled days are read (a few ms on 30 days, a year's far more), at most once each
 * `recheckMs` (an alert pass runs after every stream pass; its text may lag a day's settling by that much).
 */
export interface RecordVersionOptions {
  version?: string | number;
  recheckMs?: number;
}

/**
 * The cache's record by band and venue (DESIGN 4), for an alert pass or the board's detail: `record(edge, venue)`.
 * Reading the whole record parses every kept day (and works out any day not kept yet), so it is kept per cache and
 * read again only when its version moves: the rules, or the settled days (a day settling, a day's settled value or
 * span changing). Each call of the returned function is a map look-up.
 */
export function edgeBandRecords(cache: Cache, rules: RecordRules, options: RecordVersionOptions = {}): EdgeRecordOf {
  const ruled = JSON.stringify([rules.edgeMin, rules.settlement ?? null]);
  let memo = memos.get(cache);
  const now = Date.now();
  const recent =
    options.version === undefined &&
    memo !== undefined &&
    memo.version.startsWith(`${ruled}|days|`) &&
    now - memo.checkedAt < (options.recheckMs ?? 0);
  if (!recent) {
    let version: string;
    let days: ReturnType<Cache['history']['recordSettledDays']> | null = null;
    if (options.version !== undefined) version = `${ruled}|own|${options.version}`;
    else {
      days = cache.history.recordSettledDays({});
      version = `${ruled}|days|${days.map((d) => `${d.city_id}|${d.local_date}|${d.settled}|${d.fromMs}|${d.toMs}`).join(',')}`;
    }
    if (memo?.version !== version) {
      const none = days !== null && days.length === 0;
      memo = { version, checkedAt: now, trades: none ? [] : readBoardRecord(cache, rules).trades, byKey: new Map() };
      memos.set(cache, memo);
    } else memo.checkedAt = now;
  }
  const held = memo as Memo;
  return (edge, venue) => {
    const band = edgeBand(edge);
    const key = `${band}|${venue}`;
    let out = held.byKey.get(key);
    if (!out) {
      out = bandRecordOf(held.trades, band, venue);
      held.byKey.set(key, out);
    }
    return out;
  };
}

/** One edge's record from the cache (edgeBandRecords, kept between calls). */
export function edgeBandRecord(cache: Cache, rules: RecordRules, edge: number, venue: Venue): EdgeBandRecord {
  return edgeBandRecords(cache, rules)(edge, venue);
}
