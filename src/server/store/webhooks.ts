import { randomBytes } from 'node:crypto';
import type { Statement } from 'better-sqlite3';
import { LIMITS } from '../../contract/limits.js';
import { statementCache } from '../../sqlite/statement-cache.js';
import type { Db } from './open-store.js';

export interface Webhook {
  id: string;
  url: string;
  secret: string;
  events: string[] | null;
  allow_private: boolean;
  status: 'active' | 'disabled';
  consecutive_failures: number;
  last_attempt_at: string | null;
  last_result: string | null;
  created_at: string;
}

/** What `list` shows: everything but the secret. */
export type WebhookInfo = Omit<Webhook, 'secret'>;

export interface Delivery {
  id: number;
  webhook_id: string;
  event_id: string;
  event_type: string;
  payload: string;
  attempts: number;
  next_attempt_at: number;
}

export interface AttemptOutcome {
  attempt: number;
  deliveryUuid: string;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  /** World instant of the attempt (ms). */
  at: number;
}

export interface AttemptLogRow {
  event_id: string;
  delivery_id: string;
  attempt: number;
  status_code: number | null;
  error: string | null;
  duration_ms: number;
  attempted_at: string;
  next_attempt_at: string | null;
}

const iso = (ms: number) => new Date(ms).toISOString();
type Row = Omit<Webhook, 'events' | 'allow_private'> & { events: string | null; allow_private: number };
const toWebhook = (row: Row): Webhook => ({
  ...row,
  events: row.events === null ? null : (JSON.parse(row.events) as string[]),
  allow_private: row.allow_private === 1,
});

export const newWebhookSecret = (): string => `whsec_${randomBytes(32).toString('base64url')}`;

/**
 * Webhook registrations, the outbox (one row per event and webhook) and the attempt log. Admin commands and the
 * running server share it through SQLite, so a change made by one is seen by the other at its next query.
 */
export class WebhookStore {
  private readonly sql: (sql: string) => Statement<unknown[]>;

  constructor(private readonly db: Db) {
    this.sql = statementCache(db);
  }

  /** `secret`: the monitor's demo passes the one its listener already verifies with; otherwise a fresh one. */
  add(
    url: string,
    events: string[] | null,
    allowPrivate: boolean,
    secret = newWebhookSecret(),
  ): { id: string; secret: string } {
    const id = `wh_${randomBytes(6).toString('hex')}`;
    this.sql('INSERT INTO webhooks (id, url, secret, events, allow_private, created_at) VALUES (?, ?, ?, ?, ?, ?)').run(
      id,
      url,
      secret,
      events === null ? null : JSON.stringify(events),
      allowPrivate ? 1 : 0,
      iso(Date.now()),
    );
    return { id, secret };
  }

  get(id: string): Webhook | undefined {
    const row = this.sql('SELECT * FROM webhooks WHERE id = ?').get(id) as Row | undefined;
    return row && toWebhook(row);
  }

  list(): WebhookInfo[] {
    return (this.sql('SELECT * FROM webhooks ORDER BY created_at, id').all() as Row[]).map((row) => {
      const { secret: _secret, ...info } = toWebhook(row);
      return info;
    });
  }

  remove(id: string): boolean {
    return this.sql('DELETE FROM webhooks WHERE id = ?').run(id).changes > 0;
  }

  /** Re-enables a webhook and forgives its failures; its pending deliveries resume. */
  enable(id: string): boolean {
    return this.sql("UPDATE webhooks SET status = 'active', consecutive_failures = 0 WHERE id = ?").run(id).changes > 0;
  }

  /** Queues one delivery for one webhook, due at once (`webhooks test`). */
  enqueue(webhookId: string, eventId: string, eventType: string, payload: object): void {
    this.sql(
      'INSERT INTO webhook_deliveries (webhook_id, event_id, event_type, payload, next_attempt_at, created_at) VALUES (?, ?, ?, ?, 0, ?)',
    ).run(webhookId, eventId, eventType, JSON.stringify(payload), iso(Date.now()));
  }

  /** Pending deliveries of active webhooks due by `now` (world ms), oldest first. */
  due(now: number, limit: number): Delivery[] {
    return this.sql(
      `SELECT d.id, d.webhook_id, d.event_id, d.event_type, d.payload, d.attempts, d.next_attempt_at
       FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id
       WHERE d.status = 'pending' AND w.status = 'active' AND d.next_attempt_at <= ?
       ORDER BY d.next_attempt_at, d.id LIMIT ?`,
    ).all(now, limit) as Delivery[];
  }

  /** When the next pending delivery of an active webhook falls due (world ms), if any. */
  nextDue(): number | undefined {
    const next = this.sql(
      `SELECT min(d.next_attempt_at) FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id
       WHERE d.status = 'pending' AND w.status = 'active'`,
    )
      .pluck()
      .get() as number | null;
    return next ?? undefined;
  }

  /**
   * Logs an attempt and moves the delivery and the webhook on, in one transaction: a 2xx delivers and resets the
   * webhook's failure count; a failure schedules the next retry (or fails the delivery after the sixth attempt) and
   * disables the webhook at its tenth consecutive failure. `recordAttempts` commits many outcomes together.
   */
  recordAttempts(batch: readonly { delivery: Delivery; outcome: AttemptOutcome }[]): void {
    this.db.transaction(() => {
      for (const { delivery, outcome } of batch) this.recordAttempt(delivery, outcome);
    })();
  }

  recordAttempt(delivery: Delivery, outcome: AttemptOutcome): void {
    const ok = outcome.statusCode !== null && outcome.statusCode >= 200 && outcome.statusCode < 300;
    const delay = LIMITS.webhookRetryDelaysMs[outcome.attempt - 1];
    const nextAttempt = ok || delay === undefined ? null : outcome.at + delay;
    const result = outcome.statusCode !== null ? String(outcome.statusCode) : (outcome.error ?? 'error');
    this.db.transaction(() => {
      this.sql(
        `INSERT INTO webhook_attempts (delivery_id, webhook_id, event_id, delivery_uuid, attempt, status_code, error,
           duration_ms, attempted_at, next_attempt_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(
        delivery.id,
        delivery.webhook_id,
        delivery.event_id,
        outcome.deliveryUuid,
        outcome.attempt,
        outcome.statusCode,
        outcome.error,
        Math.round(outcome.durationMs),
        iso(outcome.at),
        nextAttempt,
      );
      const status = ok ? 'delivered' : nextAttempt === null ? 'failed' : 'pending';
      this.sql('UPDATE webhook_deliveries SET attempts = ?, status = ?, next_attempt_at = ? WHERE id = ?').run(
        outcome.attempt,
        status,
        nextAttempt ?? delivery.next_attempt_at,
        delivery.id,
      );
      this.sql(
        `UPDATE webhooks SET last_attempt_at = ?, last_result = ?,
           consecutive_failures = CASE WHEN ? THEN 0 ELSE consecutive_failures + 1 END WHERE id = ?`,
      ).run(iso(outcome.at), result, ok ? 1 : 0, delivery.webhook_id);
      this.sql(
        `UPDATE webhooks SET status = 'disabled' WHERE id = ? AND status = 'active' AND consecutive_failures >= ?`,
      ).run(delivery.webhook_id, LIMITS.webhookDisableAfterFailures);
    })();
  }

  attempts(webhookId: string): AttemptLogRow[] {
    return this.attemptRows(
      `SELECT event_id, delivery_uuid AS delivery_id, attempt, status_code, error, duration_ms, attempted_at, next_attempt_at
       FROM webhook_attempts WHERE webhook_id = ? ORDER BY id`,
      webhookId,
    );
  }

  /** The newest `limit` attempts of one webhook, newest first (the deliveries page), and how many there are. */
  recentAttempts(webhookId: string, limit: number): { rows: AttemptLogRow[]; total: number } {
    const rows = this.attemptRows(
      `SELECT event_id, delivery_uuid AS delivery_id, attempt, status_code, error, duration_ms, attempted_at, next_attempt_at
       FROM webhook_attempts WHERE webhook_id = ? ORDER BY id DESC LIMIT ?`,
      webhookId,
      limit,
    );
    const total = this.sql('SELECT count(*) FROM webhook_attempts WHERE webhook_id = ?')
      .pluck()
      .get(webhookId) as number;
    return { rows, total };
  }

  private attemptRows(sql: string, ...params: unknown[]): AttemptLogRow[] {
    return (
      this.sql(sql).all(...params) as (Omit<AttemptLogRow, 'next_attempt_at'> & { next_attempt_at: number | null })[]
    ).map((row) => ({ ...row, next_attempt_at: row.next_attempt_at === null ? null : iso(row.next_attempt_at) }));
  }
}
