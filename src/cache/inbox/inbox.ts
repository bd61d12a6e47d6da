import type { Statement } from 'better-sqlite3';
import type { EdgeEvent, InsuranceEvent } from '../../contract/events.js';
import type { BookHorizon } from '../../domain/book-horizon.js';
import type { KillSignal } from '../../domain/kill-signal.js';
import type { SqliteDb } from '../../sqlite/open-database.js';
import type { AlertRows, NewAlert } from '../alerts.js';
import type { ChangeEvent, ChangeEvents } from '../db/change-events.js';
import { instantMs } from '../db/time.js';
import { EventProjections } from './event-projections.js';
import type { InboxAlertRules, InboxEntry, IntakeOutcome, RejectedWebhook } from './inbox-entry.js';
import { storedKillNotice } from './kill-notices.js';
import {
  bookHorizon,
  type ListenerAlertRules,
  type ListenerHealth,
  type ListenerRefusal,
  listenerHealth,
  recordRegistered,
  recordVerified,
  refusalRun,
  type StandingRefusingAlert,
  storeRefusals,
  unnotifiedRefusing,
} from './listener-health.js';

/** The webhook receiver's durable inbox: accepted events and what they become, rejected deliveries, kill notices. */
export class InboxRepository {
  private readonly projections: EventProjections;

  constructor(
    private readonly db: SqliteDb,
    private readonly prepared: (sql: string) => Statement<unknown[]>,
    private readonly alerts: AlertRows,
    private readonly changes: ChangeEvents,
  ) {
    this.projections = new EventProjections(prepared, alerts);
  }

  /**
   * Accepted deliveries, all in one transaction (the receiver's group commit): each is stored or found a duplicate,
   * in order, with the alerts `rules` say they raise. Change events follow the commit; a listener that throws is
   * reported as a process warning, never to the caller, whose events are committed.
   */
  intake(entries: readonly InboxEntry[], rules: InboxAlertRules): IntakeOutcome[] {
    const outcomes = this.db.transaction(() => {
      const stored = entries.map((entry) => this.projections.store(entry, rules));
      // every one of them verified (a duplicate too): the newest moves the listener's last verified delivery, the
      // oldest is the first ever on a fresh cache (the book's horizon)
      const times = entries.map((e) => e.receivedAt).sort();
      const [oldest] = times;
      if (oldest !== undefined) recordVerified(this.prepared, times[times.length - 1] as string, oldest);
      return stored;
    })();
    const stored = entries.filter((_, i) => outcomes[i] === 'stored');
    if (stored.length > 0) this.changes.emitQuietly(inboxChanges(stored));
    return outcomes;
  }

  /** A signed delivery that was not accepted: its bytes kept and its alert stored, in one transaction. */
  reject(rejected: RejectedWebhook, alert: NewAlert): void {
    const id = this.db.transaction(() => {
      this.prepared(
        `INSERT INTO rejected_webhooks (reason, event_type, event_id, delivery_id, received_at, received_ms, body)
         VALUES (?, ?, ?, ?, ?, ?, ?)`,
      ).run(
        rejected.reason,
        rejected.eventType ?? null,
        rejected.eventId ?? null,
        rejected.deliveryId ?? null,
        rejected.receivedAt,
        instantMs(rejected.receivedAt),
        rejected.body,
      );
      // its signature verified: the secret matches, whatever the body holds
      recordVerified(this.prepared, rejected.receivedAt);
      return this.alerts.insert(alert);
    })();
    this.changes.emit({ table: 'alerts', ids: [id] });
  }

  /**
   * Deliveries the listener refused (signature, replay), kept without their bodies in one transaction with the alert
   * `rules` raise over the run of signature refusals since the last verified delivery. Returns that alert as stored,
   * for the listener to notify, or null.
   */
  refuse(refusals: readonly ListenerRefusal[], rules: ListenerAlertRules): (NewAlert & { id: number }) | null {
    if (refusals.length === 0) return null;
    const raised = this.db.transaction(() => {
      storeRefusals(this.prepared, refusals);
      const alert = rules.refusing(refusalRun(this.prepared));
      return alert ? { ...alert, id: this.alerts.insert(alert) } : null;
    })();
    if (raised) this.changes.emit({ table: 'alerts', ids: [raised.id] });
    return raised;
  }

  /**
   * The listener's health at `nowIso` (the service's clock as the caller knows it): first and last verified delivery,
   * the last refusal, refusals in the hour before, and whether it stands refusing (DESIGN 4). For `status` and the
   * monitor's status bar, whichever process runs the listener.
   */
  listenerHealth(nowIso: string): ListenerHealth {
    return listenerHealth(this.prepared, nowIso);
  }

  /** The monitor registered its listener with the service at `at` (the demo): the book's horizon (listener-health.ts). */
  recordRegistration(at: string): void {
    recordRegistered(this.prepared, at);
  }

  /** The instant from which insurance picks reach the cache (DESIGN 4 "the book's horizon"); null: none ever will. */
  bookHorizon(): BookHorizon | null {
    return bookHorizon((sql) => this.prepared(sql).get());
  }

  /** The standing refusing alert not notified yet (listener-health.ts); once shown, `alerts.markNotified`. */
  unnotifiedRefusing(): StandingRefusingAlert[] {
    return unnotifiedRefusing(this.prepared);
  }

  /**
   * Kill alerts whose desktop notification has not run yet (`pickIds`: only those about these picks), each with the
   * kill signal to show, rebuilt from the pick as stored (kill-notices.ts). `signal` is undefined when the pick is
   * not there to rebuild it from. Once shown, `alerts.markNotified`.
   */
  unnotifiedKills(
    pickIds?: readonly string[],
  ): { alertId: number; pickId: string; createdAt: string; signal?: KillSignal }[] {
    return this.alerts.unnotifiedKills(pickIds).map(({ id, ref, created_at }) => ({
      alertId: id,
      pickId: ref,
      createdAt: created_at,
      signal: storedKillNotice(this.prepared, ref),
    }));
  }
}

/** The change events of stored entries (after their commit): events, and the picks, trades and alerts they moved. */
function inboxChanges(stored: readonly InboxEntry[]): ChangeEvent[] {
  const changes: ChangeEvent[] = [{ table: 'webhook-events', ids: stored.map((e) => e.eventId) }];
  // by event type: a webhook.test has no trade at all
  const picks = stored.flatMap((e) =>
    e.eventType.startsWith('insurance.') ? [(e.event as InsuranceEvent).trade.pick_id] : [],
  );
  const trades = stored.flatMap((e) =>
    e.eventType.startsWith('edge.') ? [(e.event as EdgeEvent).trade.engine_trade_id] : [],
  );
  if (picks.length > 0) changes.push({ table: 'insurance-picks', ids: picks });
  if (trades.length > 0) changes.push({ table: 'edge-trades', ids: trades });
  // a kill raises an alert, and so does an addon born killed; a pick's creation never does
  if (stored.some((e) => e.eventType === 'insurance.pick.killed' || e.eventType === 'insurance.addon.created'))
    changes.push({ table: 'alerts', ids: [] });
  return changes;
}
