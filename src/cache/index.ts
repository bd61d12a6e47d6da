export { Cache, type ChangeEvent, type Checkpoint } from './cache.js';
export { EXPORT_NAMES, type ExportFilter } from './export.js';
export type {
  EdgeTradeView,
  InboxEntry,
  InsurancePickView,
  IntakeOutcome,
  RejectedWebhook,
  WebhookEventRow,
} from './inbox.js';
export type { AlertRow, AlertSeverity, NewAlert, StreamName, StreamState } from './meta.js';
export { type CacheDb, CacheError, openCache } from './open-cache.js';
export type { CacheReads, CurrentRow, ForecastRow, ListOptions } from './reads.js';
export type { WriteCounts } from './upsert.js';
