import type { Statement } from 'better-sqlite3';
import { type AlertKind, sqlKind } from '../../contract/alert-kinds.js';
import { CacheError } from '../db/cache-error.js';
import { instantMs } from '../db/time.js';

export type AlertSeverity = 'info' | 'warning' | 'high';

/** An alert to store; which alert a fact raises is decided in alerts/, the cache only keeps the rows. */
export interface NewAlert {
  severity: AlertSeverity;
  kind: AlertKind;
  message: string;
  ref?: string;
  /** Optional addition: the city the alert concerns, so `export alerts --city` can filter. */
  city_id?: string;
  created_at: string;
  /**
   * Found late (DESIGN 4 "alerts in time"): its instant was more than two poll intervals of its stream before the pass
   * that found it (at start, after a gap). Listed by its own instant, never notified.
   */
  catch_up?: boolean;
}

export interface AlertRow {
  id: number;
  severity: string;
  /** An `AlertKind` when this version wrote it; a cache file may hold a newer version's (`isAlertKind`). */
  kind: string;
  message: string;
  ref: string | null;
  city_id: string | null;
  created_at: string;
  acknowledged_at: string | null;
  /** The pane's reads (`older`, `newer`, a pass's new alerts) carry these too; `export alerts` keeps its columns. */
  /** 1: found late (NewAlert's `catch_up`), never notified. */
  catch_up?: number;
  /** An edge alert the board no longer shows at edge_min: the instant (epoch ms) and side's price it fell below at. */
  gone_ms?: number | null;
  gone_price?: number | null;
}

export const ALERT_COLUMNS = 'id, severity, kind, message, ref, city_id, created_at, acknowledged_at';
/** What the Alerts pane and the notifiers read of an alert: the exported columns and its state in time. */
export const PANE_COLUMNS = `${ALERT_COLUMNS}, catch_up, gone_ms, gone_price`;

/** The kill alert's kind as an SQL literal: kills are listed, counted and notified apart. */
export const KILL = sqlKind('kill');

/**
 * The alert rows as the inbox writes them, inside its own transactions (it announces the change after the commit):
 * not on `cache.alerts`, where every write is announced.
 */
export class AlertRows {
  constructor(private readonly prepared: (sql: string) => Statement<unknown[]>) {}

  /** Stores an alert; returns its id. */
  insert(alert: NewAlert): number {
    const createdMs = instantMs(alert.created_at);
    if (createdMs === null) throw new CacheError(`alert created_at '${alert.created_at}' is not an ISO 8601 instant`);
    const info = this.prepared(
      `INSERT INTO alerts (severity, kind, message, ref, city_id, created_at, created_ms, catch_up)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      alert.severity,
      alert.kind,
      alert.message,
      alert.ref ?? null,
      alert.city_id ?? null,
      alert.created_at,
      createdMs,
      alert.catch_up ? 1 : 0,
    );
    return Number(info.lastInsertRowid);
  }

  /** Whether an alert of this kind about this ref was raised already. */
  raised(kind: AlertKind, ref: string): boolean {
    return this.prepared('SELECT 1 FROM alerts WHERE kind = ? AND ref = ? LIMIT 1').get(kind, ref) !== undefined;
  }

  /**
   * Kill alerts whose desktop notification has not run yet, oldest first; with `refs`, only those about these picks.
   * (The partial index holds only these.)
   */
  unnotifiedKills(refs?: readonly string[]): { id: number; ref: string; created_at: string }[] {
    const about = refs ? ' AND ref IN (SELECT value FROM json_each(?))' : '';
    return this.prepared(
      `SELECT id, ref, created_at FROM alerts WHERE kind = ${KILL} AND notified_at IS NULL${about} ORDER BY id`,
    ).all(...(refs ? [JSON.stringify(refs)] : [])) as { id: number; ref: string; created_at: string }[];
  }
}
