export type { AlertSegment, RejectedDelivery } from './alert-reads.js';
export { ALERT_SEGMENTS } from './alert-reads.js';
export { Cache, type ChangeEvent, type Checkpoint } from './cache.js';
export type { ReadStats } from './counted-queries.js';
export { EXPORT_NAMES, type ExportFilter } from './export.js';
export type { SignalPayload } from './feed-reads.js';
export { compareFeed, type FeedKey, type Signal, type SignalKind } from './feed-sources.js';
export { BROWSE_TABLES, type BrowseFilter, type BrowseKey, type BrowseRow, type BrowseTable } from './history-reads.js';
export type { ForecastErrorSummary, HistorySummary, LockSummary, StrategySummary } from './history-summary.js';
export type {
  EdgeTradeView,
  InboxEntry,
  InsurancePickView,
  IntakeOutcome,
  RejectedWebhook,
  WebhookEventRow,
} from './inbox.js';
export { type BucketQuote, type MetarPoint, QuoteBook, RECENT_QUOTE_ROWS } from './market-reads.js';
export type { AlertRow, AlertSeverity, NewAlert, StreamName, StreamState } from './meta.js';
export { type CacheDb, CacheError, openCache } from './open-cache.js';
export type { PaneReads } from './pane-reads.js';
export { type OpenPositions, POSITION_LIMIT } from './position-reads.js';
export type { CacheReads, CurrentRow, ForecastRow, ListOptions } from './reads.js';
export type { WriteCounts } from './upsert.js';
