import type { Statement } from 'better-sqlite3';
import { CacheError } from './open-cache.js';
import { instantMs } from './time.js';

export type StreamName = string;

export interface StreamState {
  stream: string;
  last_success_at: string | null;
  last_error_at: string | null;
  last_error: string | null;
  /** Rows the last successful poll of the stream delivered. */
  rows: number;
}

export type AlertSeverity = 'info' | 'warning' | 'high';

export interface NewAlert {
  severity: AlertSeverity;
  kind: string;
  message: string;
  ref?: string;
  /** Optional addition: the city the alert concerns, so `export alerts --city` can filter. */
  city_id?: string;
  created_at: string;
}

export interface AlertRow {
  id: number;
  severity: string;
  kind: string;
  message: string;
  ref: string | null;
  city_id: string | null;
  created_at: string;
  acknowledged_at: string | null;
}

export const ALERT_COLUMNS = 'id, severity, kind, message, ref, city_id, created_at, acknowledged_at';

/** Checkpoints, the stale state of each stream, and alerts: the cache's own small tables. */
export class MetaRepo {
  constructor(private readonly prepared: (sql: string) => Statement<unknown[]>) {}

  getCheckpoint(stream: string): string | undefined {
    return this.prepared('SELECT value FROM checkpoints WHERE stream = ?').pluck().get(stream) as string | undefined;
  }

  setCheckpoint(stream: string, value: string): void {
    if (typeof value !== 'string') throw new CacheError(`checkpoint of ${stream} must be a string`);
    this.prepared(
      'INSERT INTO checkpoints (stream, value) VALUES (?, ?) ON CONFLICT (stream) DO UPDATE SET value = excluded.value',
    ).run(stream, value);
  }

  recordStreamSuccess(stream: string, at: string, rows: number): void {
    this.prepared(
      `INSERT INTO stream_state (stream, last_success_at, rows) VALUES (?, ?, ?)
       ON CONFLICT (stream) DO UPDATE SET last_success_at = excluded.last_success_at, rows = excluded.rows`,
    ).run(stream, at, rows);
  }

  recordStreamError(stream: string, at: string, error: string): void {
    this.prepared(
      `INSERT INTO stream_state (stream, last_error_at, last_error) VALUES (?, ?, ?)
       ON CONFLICT (stream) DO UPDATE SET last_error_at = excluded.last_error_at, last_error = excluded.last_error`,
    ).run(stream, at, error);
  }

  streamStates(): StreamState[] {
    return this.prepared(
      'SELECT stream, last_success_at, last_error_at, last_error, rows FROM stream_state ORDER BY stream',
    ).all() as StreamState[];
  }

  addAlert(alert: NewAlert): number {
    const createdMs = instantMs(alert.created_at);
    if (createdMs === null) throw new CacheError(`alert created_at '${alert.created_at}' is not an ISO 8601 instant`);
    const info = this.prepared(
      `INSERT INTO alerts (severity, kind, message, ref, city_id, created_at, created_ms)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      alert.severity,
      alert.kind,
      alert.message,
      alert.ref ?? null,
      alert.city_id ?? null,
      alert.created_at,
      createdMs,
    );
    return Number(info.lastInsertRowid);
  }

  alerts(opts: { unacknowledged?: boolean } = {}): AlertRow[] {
    const where = opts.unacknowledged ? ' WHERE acknowledged_at IS NULL' : '';
    return this.prepared(`SELECT ${ALERT_COLUMNS} FROM alerts${where} ORDER BY id DESC`).all() as AlertRow[];
  }

  /** Whether an alert of this kind about this ref exists (rules use it to raise an alert once). */
  hasAlert(kind: string, ref: string): boolean {
    return this.prepared('SELECT 1 FROM alerts WHERE kind = ? AND ref = ? LIMIT 1').get(kind, ref) !== undefined;
  }

  /**
   * Kill alerts whose desktop notification has not run yet, oldest first; with `refs`, only those about these picks.
   * (The partial index holds only these.)
   */
  unnotifiedKills(refs?: readonly string[]): { id: number; ref: string }[] {
    const about = refs ? ' AND ref IN (SELECT value FROM json_each(?))' : '';
    return this.prepared(
      `SELECT id, ref FROM alerts WHERE kind = 'kill' AND notified_at IS NULL${about} ORDER BY id`,
    ).all(...(refs ? [JSON.stringify(refs)] : [])) as { id: number; ref: string }[];
  }

  /** The kill alert's notification ran (or there was none to run); false when it was marked already. */
  markNotified(id: number, at: string): boolean {
    return (
      this.prepared('UPDATE alerts SET notified_at = ? WHERE id = ? AND notified_at IS NULL').run(at, id).changes > 0
    );
  }

  acknowledgeAlert(id: number, at: string): boolean {
    return (
      this.prepared('UPDATE alerts SET acknowledged_at = ? WHERE id = ? AND acknowledged_at IS NULL').run(at, id)
        .changes > 0
    );
  }
}
