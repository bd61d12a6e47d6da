import type { FusionLock } from '../contract/fusion-locks.js';
import type { StrategyFamily, StrategyRecord } from '../contract/strategies.js';
import { addDays, instantAtLocal } from '../domain/city-time.js';
import { lockSignal, type SkewedSource } from './feed-sources.js';
import { strategySqlTable } from './schema.js';

const HOUR = 3_600_000;

const pct = (n: number) => `${Math.round(n * 100)}%`;

function strategyNote(r: StrategyRecord): string {
  const outcome = r.outcome ? ` · ${r.outcome.toUpperCase()} roi ${pct(r.roi ?? 0)}` : '';
  if (r.strategy === 'svc_max_11') return `p ${pct(r.model_prob)} edge ${r.edge.toFixed(3)}${outcome}`;
  return `${r.model} ${pct(r.model_exact_pct)} exact${outcome}`;
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
        kind: family,
        rank,
        at: strategyAt(r, tz ?? 'UTC'),
        key: r.id,
        estimated: true,
        city_id: r.city_id,
        tz,
        market_date: r.local_date,
        bucket: r.bucket_label,
        side: r.side,
        prices: [r.strategy === 'no24' ? r.no_ask : r.yes_ask],
        stake: r.stake,
        note: strategyNote(r),
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
