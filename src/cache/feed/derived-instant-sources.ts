import type { FusionLock } from '../../contract/fusion-locks.js';
import type { StrategyFamily, StrategyRecord } from '../../contract/strategies.js';
import { entryHourOf, marketSettlesAt, recordAsOf, recordEntersAt } from '../../domain/market-times.js';
import { strategySqlTable } from '../db/tables.js';
import type { CacheTopic } from '../topics.js';
import { RANK, type Signal, type SignalFacts, type Zones } from './signal.js';
import { lockSignal } from './stored-instant-sources.js';

const HOUR = 3_600_000;

type Row = Record<string, unknown>;

/**
 * What a derived source's scan reads: `columns` of the rows of `table` that pass `filter`, in the order of the
 * indexed `proxy` column, then the `key` column (its tie-break). An index on (proxy, key) serves both directions
 * (strategy tables: `local_date` with the rowid `id` as its last column; locks: `fusion_locks_order`).
 */
export interface ScanTable {
  table: string;
  /** The light columns read; they include `proxy` and `key` by those names. */
  columns: string;
  /** The rows scanned (SQL), or null: all. */
  filter: string | null;
  proxy: string;
  key: string;
}

/**
 * A source of the feed without a stored instant: its rows are scanned in the order of an indexed proxy (a date, or
 * the lock time) and each row's instant is derived. `lo`/`hi` bound `at - proxy`, which tells the scan when no
 * further row can make the page. The scan reads only the columns the instant follows from (no JSON text, which is
 * most of a row and of its cost): the rows that make the page are then read whole, by key.
 */
export interface DerivedInstantSource {
  rank: number;
  /** The change event its table's writes announce: what a pane showing the feed watches. */
  topic: CacheTopic;
  lo: number;
  hi: number;
  /** The rows scanned, by (proxy, key): `key` and what `atOf` reads. */
  scan: ScanTable;
  /** The proxy column's value of an instant: what bounds the scan. */
  boundArg(ms: number): string | number;
  proxyOf(row: Row): number;
  /** The instant of a scanned row, from its light columns: the same as its signal's `at`. */
  atOf(row: Row, zones: Zones): number;
  /** The whole rows of `n` keys (`key IN (?, ...)`), for `toSignal`. */
  rowsSql(n: number): string;
  keyOf(row: Row): string | number;
  /** The signal as of an instant at or after its own (a strategy record settled after it is shown open). */
  toSignal(row: Row, zones: Zones, atMs: number): Signal;
}

const placeholders = (n: number) => Array(n).fill('?').join(', ');

/** A strategy record's own fields behind its note: the model's belief, and the result once settled. */
function strategyFacts(family: StrategyFamily, r: StrategyRecord): SignalFacts {
  const belief =
    r.strategy === 'svc_max_11'
      ? { model_prob: r.model_prob, edge: r.edge }
      : { model: r.model, model_exact_pct: r.model_exact_pct };
  return { kind: family, belief, outcome: r.outcome ?? null, roi: r.roi ?? null };
}

const resolvedLocks: DerivedInstantSource = {
  rank: RANK['lock-resolved'],
  topic: 'fusion-locks',
  // settled after local midnight, locked at the peak hour of the same local day: at most a day apart
  lo: -HOUR,
  hi: 26 * HOUR,
  scan: {
    table: 'fusion_locks',
    columns: 'id, city_id, local_date, locked_ms',
    filter: 'resolved = 1',
    proxy: 'locked_ms',
    key: 'id',
  },
  boundArg: (ms) => ms,
  proxyOf: (row) => Number(row.locked_ms),
  atOf: (row, zones) => marketSettlesAt(String(row.local_date), zones.get(String(row.city_id)) ?? 'UTC'),
  rowsSql: (n) => `SELECT id, json FROM fusion_locks WHERE id IN (${placeholders(n)})`,
  keyOf: (row) => String(row.id),
  toSignal: (row, zones) => {
    const lock = JSON.parse(String(row.json)) as FusionLock;
    const tz = zones.get(lock.city_id) ?? 'UTC';
    return lockSignal('lock-resolved', marketSettlesAt(lock.local_date, tz), lock, zones);
  },
};

function strategySource(family: StrategyFamily): DerivedInstantSource {
  const rank = RANK[family];
  const table = strategySqlTable(family);
  // only svc-max picks enter at an hour of their own, which only the record's JSON holds
  const light = `id, city_id, local_date${family === 'svc-max-picks' ? ", json_extract(json, '$.entry_hour') AS entry_hour" : ''}`;
  return {
    rank,
    topic: family,
    // local zones run from UTC-12 to UTC+14; entry hours from 00:01 to 23:00 (plus an hour for DST)
    lo: -15 * HOUR,
    hi: 37 * HOUR,
    scan: { table, columns: light, filter: null, proxy: 'local_date', key: 'id' },
    boundArg: (ms) => new Date(ms).toISOString().slice(0, 10),
    proxyOf: (row) => Date.parse(`${String(row.local_date)}T00:00:00Z`),
    atOf: (row, zones) =>
      recordEntersAt(
        String(row.local_date),
        family === 'svc-max-picks' ? Number(row.entry_hour) : null,
        zones.get(String(row.city_id)) ?? 'UTC',
      ),
    rowsSql: (n) => `SELECT id, json FROM ${table} WHERE id IN (${placeholders(n)})`,
    keyOf: (row) => Number(row.id),
    toSignal: (row, zones, atMs) => {
      const stored = JSON.parse(String(row.json)) as StrategyRecord;
      const tz = zones.get(stored.city_id) ?? null;
      const r = recordAsOf(stored, tz ?? 'UTC', atMs) ?? stored;
      return {
        ...strategyFacts(family, r),
        rank,
        at: recordEntersAt(r.local_date, entryHourOf(r), tz ?? 'UTC'),
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
export const DERIVED_INSTANT_SOURCES: DerivedInstantSource[] = [
  resolvedLocks,
  strategySource('svc-max-picks'),
  strategySource('yescore'),
  strategySource('no24'),
];
