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

  /** Unacknowledged alerts and how many of them are kills (the partial index holds only these). */
  counts(): { unacknowledged: number; kills: number } {
    const row = this.q.get<{ n: number; kills: number }>(
      "SELECT count(*) AS n, coalesce(sum(kind = 'kill'), 0) AS kills FROM alerts WHERE acknowledged_at IS NULL",
    );
    return { unacknowledged: row?.n ?? 0, kills: row?.kills ?? 0 };
  }
}
