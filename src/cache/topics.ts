import { HISTORICAL_TABLES, type HistoricalTable, isHistoricalTable, STRATEGY_FAMILIES } from '../contract/names.js';
import { historicalSqlTable, strategySqlTable } from './db/tables.js';

/**
 * What a pane can watch: every name a cache change event carries (`ChangeEvent.table`). The union below is derived
 * from this one list, so a pane naming a topic the cache never announces does not compile, where a typo used to
 * leave the pane silently never updating.
 */
export const CACHE_TOPICS = [
  'cities',
  'current',
  'forecasts',
  ...STRATEGY_FAMILIES,
  'fusion-locks',
  ...HISTORICAL_TABLES.map((table) => `historical/${table}` as const),
  'insurance-picks',
  'edge-trades',
  'webhook-events',
  'alerts',
  'streams',
] as const;

export type CacheTopic = (typeof CACHE_TOPICS)[number];

/** The topic of a table History can browse: historical tables are announced under `historical/`. */
export const topicOf = (table: (typeof STRATEGY_FAMILIES)[number] | 'fusion-locks' | HistoricalTable): CacheTopic =>
  isHistoricalTable(table) ? `historical/${table}` : table;

/**
 * What the positions' reads read: every kind of open position (strategy records, locks, picks, edge trades) and the
 * cities, whose zones say when a record or lock enters and settles. What a pane of holdings watches.
 */
export const POSITION_TOPICS = [
  ...STRATEGY_FAMILIES,
  'fusion-locks',
  'insurance-picks',
  'edge-trades',
  'cities',
] as const satisfies readonly CacheTopic[];

/**
 * The topic a commit to each of the cache's SQL tables is announced under; null: none (the cache's own bookkeeping, a
 * memo the reads keep, the listener's health, which no pane watches). A read's topics are its tables' topics:
 * test/cache/read-topics.unit.test.ts records the tables each read really queries and checks its list against this
 * map, and that every table of the schema is in it.
 */
export const TABLE_TOPICS: Readonly<Record<string, CacheTopic | null>> = {
  cities: 'cities',
  current_obs: 'current',
  forecasts: 'forecasts',
  ...Object.fromEntries(STRATEGY_FAMILIES.map((family) => [strategySqlTable(family), family])),
  fusion_locks: 'fusion-locks',
  ...Object.fromEntries(HISTORICAL_TABLES.map((table) => [historicalSqlTable(table), `historical/${table}`])),
  insurance_picks: 'insurance-picks',
  edge_trades: 'edge-trades',
  webhook_events: 'webhook-events',
  // the alerts' own tables commit with an alert, or announce `alerts` themselves (a snooze, a rejected delivery)
  alerts: 'alerts',
  alert_snoozes: 'alerts',
  edge_alert_marks: 'alerts',
  rejected_webhooks: 'alerts',
  stream_state: 'streams',
  // written with a page of rows (a stream's checkpoint), by the clock, the listener, the retention, or by a read
  checkpoints: null,
  service_clock: null,
  listener_verified: null,
  listener_registered: null,
  listener_refusals: null,
  record_days_kept: null,
  retention_marks: null,
  sqlite_sequence: null,
};
