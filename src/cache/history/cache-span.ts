import { HISTORICAL_TABLES, HISTORICAL_TIME_COLUMN } from '../../contract/names.js';
import type { CountedQueries } from '../db/counted-queries.js';
import { historicalSqlTable } from '../db/tables.js';

/** The instants a cache's rows cover: the oldest and the newest of them (epoch ms). */
export interface CacheSpan {
  firstMs: number;
  lastMs: number;
}

/** Tables and the typed instant each row is kept at, each with an index that starts with it. */
const INDEXED_INSTANTS: [table: string, column: string][] = [
  ['forecasts', 'fetched_ms'],
  ['current_obs', 'fetched_ms'],
  ['fusion_locks', 'locked_ms'],
  ...HISTORICAL_TABLES.filter((t) => HISTORICAL_TIME_COLUMN[t].kind === 'instant').map((t): [string, string] => [
    historicalSqlTable(t),
    't',
  ]),
];

/**
 * The monitor's own rows, kept in the order they arrived: the first and the last by key stand for the oldest and the
 * newest (their instants have no index of their own; arrival order is theirs).
 */
const ARRIVED: [table: string, key: string, column: string][] = [
  ['webhook_events', 'seq', 'received_ms'],
  ['alerts', 'id', 'created_ms'],
  ['rejected_webhooks', 'id', 'received_ms'],
];

/**
 * The span of a cache: from the oldest instant any row carries (an observation, a snapshot, a forecast's fetch, a lock,
 * a webhook's receipt, an alert) to the newest; null for a cache with none. Two seeks a table, each an end of an index
 * (SQLite reads a min() or max() off the index alone), so it costs the same for a year of history as for an hour.
 */
export function cacheSpan(q: CountedQueries): CacheSpan | null {
  const ends: number[][] = [[], []];
  const add = (which: 0 | 1, v: unknown) => {
    if (typeof v === 'number' && Number.isFinite(v)) ends[which]?.push(v);
  };
  for (const [table, column] of INDEXED_INSTANTS) {
    add(0, q.get<{ v: unknown }>(`SELECT min(${column}) AS v FROM ${table}`)?.v);
    add(1, q.get<{ v: unknown }>(`SELECT max(${column}) AS v FROM ${table}`)?.v);
  }
  for (const [table, key, column] of ARRIVED) {
    add(0, q.get<{ v: unknown }>(`SELECT ${column} AS v FROM ${table} ORDER BY ${key} LIMIT 1`)?.v);
    add(1, q.get<{ v: unknown }>(`SELECT ${column} AS v FROM ${table} ORDER BY ${key} DESC LIMIT 1`)?.v);
  }
  const [first, last] = ends as [number[], number[]];
  if (first.length === 0 || last.length === 0) return null;
  return { firstMs: Math.min(...first), lastMs: Math.max(...last) };
}
