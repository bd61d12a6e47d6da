// The cache's public face: outside src/cache/, the monitor imports the cache from here only (DESIGN 2).
export type {
  AlertRow,
  AlertSegment,
  AlertSeverity,
  CitySnooze,
  LiveEdgeAlert,
  MarketAlertWrite,
  NewAlert,
  RejectedDelivery,
} from './alerts.js';
export { ALERT_READ_TOPICS } from './alerts.js';
export { Cache, openCache } from './cache.js';
export type { Answer } from './db/answer-memo.js';
export { isBusy, nextBusyPause, shortBusyWrites, writeWhenFree } from './db/busy-writes.js';
export { CacheBusyError, CacheError, cacheFailure } from './db/cache-error.js';
export type { ChangeEvent, ChangeListener } from './db/change-events.js';
export type { ReadStats } from './db/counted-queries.js';
export { type CacheAccess, MONITOR_PAGE_CACHE_MIB } from './db/open-cache-file.js';
export type { WriteCounts } from './db/upsert-writer.js';
export { checkExportName, EXPORT_NAMES, type ExportFilter } from './export.js';
export { FEED_READ_TOPICS, type SignalPayload } from './feed/feed.js';
export {
  compareFeed,
  type FeedKey,
  type Signal,
  type SignalBucket,
  type SignalFacts,
  type SignalKind,
  type StrategyBelief,
} from './feed/signal.js';
export { RECORD_HOURS, RECORD_QUOTE_WINDOW_MS, type RecordDay, type RecordHour } from './history/board-record-days.js';
export type { BrowseFilter } from './history/browse-filter.js';
export type { CacheSpan } from './history/cache-span.js';
export { CALIBRATION_DATES } from './history/calibration-days.js';
export {
  BROWSE_TABLES,
  type BrowseKey,
  type BrowseRow,
  type BrowseTable,
  HISTORY_READ_TOPICS,
} from './history/history.js';
export type { ForecastErrorSummary, HistorySummary, LockSummary, StrategySummary } from './history/history-summary.js';
export type { KeptRecordDay, RecordSettledDay } from './history/kept-record-days.js';
export type {
  InboxAlertRules,
  InboxEntry,
  IntakeOutcome,
  RejectedWebhook,
  StoredKill,
} from './inbox/inbox-entry.js';
export type {
  ListenerAlertRules,
  ListenerHealth,
  ListenerRefusal,
  RefusalCause,
  RefusalRun,
} from './inbox/listener-health.js';
export type { EdgeTradeView, InsurancePickView } from './inbox/pick-trade-views.js';
export type { DayAheadForecast } from './market/day-ahead.js';
export type { CityDay, DayQuote, MetarDay, Venue } from './market/day-reads.js';
export {
  type BucketSeries,
  type DaySeries,
  type DaySeriesAsk,
  DEFAULT_SERIES_COLUMNS,
  DEFAULT_SERIES_STEP_MS,
} from './market/day-series.js';
export type { MetarPoint } from './market/market.js';
export { MARKET_READ_TOPICS } from './market/market.js';
export { type BucketQuote, QuoteBook } from './market/quote-book.js';
export { type OpenPositions, POSITION_LIMIT } from './positions/positions.js';
export type { CurrentRow, ForecastRow } from './resources.js';
export { dailyPrune, type PruneOptions, type PruneReport, pruneCache } from './retention/prune.js';
export { BackupError } from './retention/upkeep.js';
export { type Running, readNow, readSliced, SLICE_MS, type SlicedRead } from './sliced-read.js';
export type { Checkpoint, StreamState } from './streams.js';
export { CACHE_TOPICS, type CacheTopic, POSITION_TOPICS, topicOf } from './topics.js';
