import { HISTORICAL_TABLES, type HistoricalTable, isHistoricalTable, STRATEGY_FAMILIES } from '../contract/names.js';

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

/** Every kind of open position (strategy records, locks, picks, edge trades): what a pane of holdings watches. */
export const POSITION_TOPICS = [
  ...STRATEGY_FAMILIES,
  'fusion-locks',
  'insurance-picks',
  'edge-trades',
] as const satisfies readonly CacheTopic[];
