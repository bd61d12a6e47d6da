import type { CountedQueries } from './counted-queries.js';
import { ALERT_COLUMNS, type AlertRow } from './meta.js';

/**
 * The Alerts pane lists stored alerts in segments: unacknowledged kills first, then rejected webhooks, then every
 * other unacknowledged alert, then the acknowledged ones; newest first within each.
 */
export const ALERT_SEGMENTS = ['kill', 'rejected', 'other', 'acknowledged'] as const;
export type AlertSegment = (typeof ALERT_SEGMENTS)[number];

const SEGMENT_WHERE: Record<AlertSegment, string> = {
  kill: "acknowledged_at IS NULL AND kind = 'kill'",
  rejected: "acknowledged_at IS NULL AND kind = 'webhook-rejected'",
  other: "acknowledged_at IS NULL AND kind NOT IN ('kill', 'webhook-rejected')",
  acknowledged: 'acknowledged_at IS NOT NULL',
};

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

export class AlertReads {
  constructor(private readonly q: CountedQueries) {}

  /** Up to `limit` alerts of a segment older than `afterId` (null: from the newest), newest first. */
  older(segment: AlertSegment, afterId: number | null, limit: number): AlertRow[] {
    if (limit <= 0) return [];
    return this.q.all<AlertRow>(
      `SELECT ${ALERT_COLUMNS} FROM alerts WHERE ${SEGMENT_WHERE[segment]} AND id < ? ORDER BY id DESC LIMIT ?`,
      afterId ?? Number.MAX_SAFE_INTEGER,
      limit,
    );
  }

  /** Up to `limit` alerts of a segment newer than `beforeId` (null: none), nearest first. */
  newer(segment: AlertSegment, beforeId: number | null, limit: number): AlertRow[] {
    if (limit <= 0) return [];
    return this.q.all<AlertRow>(
      `SELECT ${ALERT_COLUMNS} FROM alerts WHERE ${SEGMENT_WHERE[segment]} AND id > ? ORDER BY id ASC LIMIT ?`,
      beforeId ?? 0,
      limit,
    );
  }

  /**
   * The rejected deliveries a `webhook-rejected` alert was raised for. The rejection and its alert are written in
   * one transaction from the same delivery (cache.rejectWebhook): its received_at is the alert's created_at and its
   * delivery id the alert's ref. Oldest first; normally exactly one.
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

  /** Unacknowledged alerts and how many of them are kills (the partial index holds only these). */
  counts(): { unacknowledged: number; kills: number } {
    const row = this.q.get<{ n: number; kills: number }>(
      "SELECT count(*) AS n, coalesce(sum(kind = 'kill'), 0) AS kills FROM alerts WHERE acknowledged_at IS NULL",
    );
    return { unacknowledged: row?.n ?? 0, kills: row?.kills ?? 0 };
  }
}
