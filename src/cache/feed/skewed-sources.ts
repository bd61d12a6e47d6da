import type { FusionLock } from '../../contract/fusion-locks.js';
import type { StrategyFamily, StrategyRecord } from '../../contract/strategies.js';
import { addDays, instantAtLocal } from '../../domain/city-time.js';
import { strategySqlTable } from '../db/tables.js';
import { lockSignal } from './exact-sources.js';
import type { Signal, SignalFacts, Zones } from './signal.js';

const HOUR = 3_600_000;

type Row = Record<string, unknown>;

/**
 * A source of the feed without a stored instant: its rows are scanned in the order of an indexed proxy (a date, or
 * the lock time) and each row's instant is derived. `lo`/`hi` bound `at - proxy`, which tells the scan when no
 * further row can make the page.
 */
export interface SkewedSource {
  rank: number;
  lo: number;
  hi: number;
  /** Rows with proxy <= the bound (or all), proxy descending. */
  olderSql(bounded: boolean): string;
  /** Rows with proxy >= the bound, proxy ascending. */
  newerSql: string;
  boundArg(ms: number): string | number;
  proxyOf(row: Row): number;
  toSignal(row: Row, zones: Zones): Signal;
}

/** A strategy record's own fields behind its note: the model's belief, and the result once settled. */
function strategyFacts(family: StrategyFamily, r: StrategyRecord): SignalFacts {
  const belief =
    r.strategy === 'svc_max_11'
      ? { model_prob: r.model_prob, edge: r.edge }
      : { model: r.model, model_exact_pct: r.model_exact_pct };
  return { kind: family, belief, outcome: r.outcome ?? null, roi: r.roi ?? null };
}

/** The entry instant the family's rule gives: 00:01 local (no24, yescore) or the entry hour (svc-max-picks). */
function strategyAt(r: StrategyRecord, tz: string): number {
  if (r.strategy === 'svc_max_11') return instantAtLocal(r.local_date, r.entry_hour, 0, tz);
  return instantAtLocal(r.local_date, 0, 1, tz);
}

const resolvedLocks: SkewedSource = {
  rank: 4,
  // settled after local midnight, locked at the peak hour of the same local day: at most a day apart
  lo: -HOUR,
  hi: 26 * HOUR,
  olderSql: (bounded) =>
    `SELECT locked_ms, json FROM fusion_locks WHERE resolved = 1${bounded ? ' AND locked_ms <= ?' : ''}
     ORDER BY locked_ms DESC, id DESC`,
  newerSql:
    'SELECT locked_ms, json FROM fusion_locks WHERE resolved = 1 AND locked_ms >= ? ORDER BY locked_ms ASC, id ASC',
  boundArg: (ms) => ms,
  proxyOf: (row) => Number(row.locked_ms),
  toSignal: (row, zones) => {
    const lock = JSON.parse(String(row.json)) as FusionLock;
    const tz = zones.get(lock.city_id) ?? 'UTC';
    return lockSignal('lock-resolved', 4, instantAtLocal(addDays(lock.local_date, 1), 0, 0, tz), lock, zones);
  },
};

function strategySource(family: StrategyFamily, rank: number): SkewedSource {
  const table = strategySqlTable(family);
  return {
    rank,
    // local zones run from UTC-12 to UTC+14; entry hours from 00:01 to 23:00 (plus an hour for DST)
    lo: -15 * HOUR,
    hi: 37 * HOUR,
    olderSql: (bounded) =>
      `SELECT local_date, json FROM ${table}${bounded ? ' WHERE local_date <= ?' : ''} ORDER BY local_date DESC, id DESC`,
    newerSql: `SELECT local_date, json FROM ${table} WHERE local_date >= ? ORDER BY local_date ASC, id ASC`,
    boundArg: (ms) => new Date(ms).toISOString().slice(0, 10),
    proxyOf: (row) => Date.parse(`${String(row.local_date)}T00:00:00Z`),
    toSignal: (row, zones) => {
      const r = JSON.parse(String(row.json)) as StrategyRecord;
      const tz = zones.get(r.city_id) ?? null;
      return {
        ...strategyFacts(family, r),
        rank,
        at: strategyAt(r, tz ?? 'UTC'),
        key: r.id,
        estimated: true,
        city_id: r.city_id,
        tz,
        market_date: r.local_date,
        buckets: [{ leg: null, label: r.bucket_label }],
        side: r.side,
        prices: [r.strategy === 'no24' ? r.no_ask : r.yes_ask],
        stake: r.stake,
        ref: String(r.id),
      };
    },
  };
}

/**
 * The feed's sources that have no stored instant: strategy records (their entry time follows from the family's
 * rule) and lock settlements (after the local midnight of the lock's day). Each is scanned by an indexed proxy.
 */
export const SKEWED_SOURCES: SkewedSource[] = [
  resolvedLocks,
  strategySource('svc-max-picks', 6),
  strategySource('yescore', 7),
  strategySource('no24', 8),
];
