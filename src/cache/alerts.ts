import type { Statement } from 'better-sqlite3';
import type { SqliteDb } from '../sqlite/open-database.js';
import type { AlertRow, AlertRows, NewAlert } from './alerts/alert-rows.js';
import { AlertsPane } from './alerts/alerts-pane.js';
import { MarketAlertRows } from './alerts/market-alert-rows.js';
import { AlertSnoozes } from './alerts/snoozes.js';
import type { ChangeEvents } from './db/change-events.js';
import type { CountedQueries } from './db/counted-queries.js';

// The rest of the cache and its public face import the alerts from here; the parts live in alerts/.
export {
  ALERT_COLUMNS,
  type AlertRow,
  AlertRows,
  type AlertSeverity,
  type NewAlert,
} from './alerts/alert-rows.js';
export { ALERT_READ_TOPICS, type AlertSegment } from './alerts/alerts-pane.js';
export type { LiveEdgeAlert, MarketAlertWrite } from './alerts/market-alert-rows.js';
export type { CitySnooze } from './alerts/snoozes.js';

/** A signed delivery the receiver could not accept, as kept: its raw bytes, for inspection. */
export interface RejectedDelivery {
  id: number;
  received_at: string;
  reason: string;
  event_type: string | null;
  event_id: string | null;
  delivery_id: string | null;
  body: Buffer;
}

/**
 * The stored alerts: raised, acknowledged, their kill notifications marked, and listed for the Alerts pane. One
 * face (`cache.alerts`) over its parts: the pane's reads and acknowledgements (alerts/alerts-pane.ts), the trader
 * alert pass's rows and edge marks (alerts/market-alert-rows.ts), the snoozes (alerts/snoozes.ts).
 */
export class AlertRepository {
  private readonly pane: AlertsPane;
  private readonly market: MarketAlertRows;
  private readonly snoozes: AlertSnoozes;

  constructor(
    db: SqliteDb,
    private readonly prepared: (sql: string) => Statement<unknown[]>,
    private readonly rows: AlertRows,
    private readonly q: CountedQueries,
    private readonly changes: ChangeEvents,
  ) {
    this.pane = new AlertsPane(db, prepared, q, changes);
    this.market = new MarketAlertRows(db, prepared, rows, q, changes);
    this.snoozes = new AlertSnoozes(prepared, q, changes);
  }

  /** Stores an alert and announces it; returns its id. */
  add(alert: NewAlert): number {
    const id = this.rows.insert(alert);
    this.changes.emit({ table: 'alerts', ids: [id] });
    return id;
  }

  /** One pass of the trader alert rules, stored and announced: MarketAlertRows.raiseMarketAlerts. */
  raiseMarketAlerts(...args: Parameters<MarketAlertRows['raiseMarketAlerts']>): AlertRow[] {
    return this.market.raiseMarketAlerts(...args);
  }

  /** A city-day's edge alerts not gone yet: MarketAlertRows.liveEdges. */
  liveEdges(...args: Parameters<MarketAlertRows['liveEdges']>): ReturnType<MarketAlertRows['liveEdges']> {
    return this.market.liveEdges(...args);
  }

  /** A city-day's fired edge refs: MarketAlertRows.firedEdges. */
  firedEdges(...args: Parameters<MarketAlertRows['firedEdges']>): Set<string> {
    return this.market.firedEdges(...args);
  }

  /** Forgets settled days' edge marks: MarketAlertRows.forgetEdgesBefore. */
  forgetEdgesBefore(...args: Parameters<MarketAlertRows['forgetEdgesBefore']>): void {
    this.market.forgetEdgesBefore(...args);
  }

  /** No notification about a city until then: AlertSnoozes.snoozeCity. */
  snoozeCity(...args: Parameters<AlertSnoozes['snoozeCity']>): void {
    this.snoozes.snoozeCity(...args);
  }

  /** The cities snoozed at an instant: AlertSnoozes.snoozed. */
  snoozed(...args: Parameters<AlertSnoozes['snoozed']>): ReturnType<AlertSnoozes['snoozed']> {
    return this.snoozes.snoozed(...args);
  }

  /** Acknowledges every alert the trader saw: AlertsPane.acknowledgeAll. */
  acknowledgeAll(...args: Parameters<AlertsPane['acknowledgeAll']>): number {
    return this.pane.acknowledgeAll(...args);
  }

  /** The newest alert's id (0: none): AlertsPane.newestId. */
  newestId(): number {
    return this.pane.newestId();
  }

  /** Acknowledges one alert; false when it was already: AlertsPane.acknowledge. */
  acknowledge(...args: Parameters<AlertsPane['acknowledge']>): boolean {
    return this.pane.acknowledge(...args);
  }

  /** The kill alert's notification ran (or there was none to run); false when it was marked already. */
  markNotified(id: number, at: string): boolean {
    return (
      this.prepared('UPDATE alerts SET notified_at = ? WHERE id = ? AND notified_at IS NULL').run(at, id).changes > 0
    );
  }

  /** A window of a segment's alerts older than a cursor: AlertsPane.older. */
  older(...args: Parameters<AlertsPane['older']>): AlertRow[] {
    return this.pane.older(...args);
  }

  /** A window of a segment's alerts newer than a cursor: AlertsPane.newer. */
  newer(...args: Parameters<AlertsPane['newer']>): AlertRow[] {
    return this.pane.newer(...args);
  }

  /** Alerts unacknowledged at an instant, and the kills among them: AlertsPane.counts. */
  counts(...args: Parameters<AlertsPane['counts']>): ReturnType<AlertsPane['counts']> {
    return this.pane.counts(...args);
  }

  /** The city-days with a kill unacknowledged at an instant: AlertsPane.unacknowledgedKillDays. */
  unacknowledgedKillDays(
    ...args: Parameters<AlertsPane['unacknowledgedKillDays']>
  ): ReturnType<AlertsPane['unacknowledgedKillDays']> {
    return this.pane.unacknowledgedKillDays(...args);
  }

  /**
   * The rejected deliveries a `webhook-rejected` alert was raised for. The rejection and its alert are written in
   * one transaction from the same delivery (inbox.reject, the rule in alerts/rejected-webhook-alert.ts): its
   * received_at is the alert's created_at and its delivery id the alert's ref. Oldest first; normally exactly one.
   */
  rejectedDeliveries(alert: Pick<AlertRow, 'kind' | 'created_at' | 'ref'>): RejectedDelivery[] {
    if (alert.kind !== 'webhook-rejected') return [];
    const rows = this.q.all<RejectedDelivery & { body: Buffer | string }>(
      `SELECT id, received_at, reason, event_type, event_id, delivery_id, body FROM rejected_webhooks
       WHERE received_at = ? AND delivery_id IS ? ORDER BY id LIMIT 10`,
      alert.created_at,
      alert.ref,
    );
    return rows.map((r) => ({ ...r, body: typeof r.body === 'string' ? Buffer.from(r.body) : r.body }));
  }
}
