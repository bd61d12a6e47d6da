import type { Statement } from 'better-sqlite3';
import type { SqliteDb } from '../../sqlite/open-database.js';
import type { ChangeEvents } from '../db/change-events.js';
import type { CountedQueries } from '../db/counted-queries.js';
import { type AlertRow, type AlertRows, type NewAlert, PANE_COLUMNS } from './alert-rows.js';

/** An edge alert the board still shows (not gone yet), as the trader-alert pass checks it. */
export interface LiveEdgeAlert {
  id: number;
  ref: string;
  message: string;
}

/**
 * What one pass of the trader alert rules (alerts/market-alerts.ts) writes: new alerts and the edge marks it fired
 * (city-day-bucket-side refs: an edge alerts once a city-day). `once` alerts are stored only when no alert of their
 * kind and ref exists yet (a dying bucket, a breakthrough: one a city-day).
 */
export interface MarketAlertWrite {
  alerts: (NewAlert & { once?: boolean })[];
  fired: { ref: string; city_id: string; local_date: string }[];
  /** Edge alerts the board no longer shows at edge_min: when (epoch ms) and at what price of the side they fell. */
  gone?: { id: number; ms: number; price: number }[];
}

/**
 * What the trader alert pass keeps between passes: its alerts, the edge marks that say an edge alerted already this
 * city-day, and the 'gone' marks of edge alerts the board no longer shows. Served through `cache.alerts`.
 */
export class MarketAlertRows {
  constructor(
    private readonly db: SqliteDb,
    private readonly prepared: (sql: string) => Statement<unknown[]>,
    private readonly rows: AlertRows,
    private readonly q: CountedQueries,
    private readonly changes: ChangeEvents,
  ) {}

  /**
   * Stores one pass of the trader alert rules in one transaction and announces the new alerts; returns them as
   * stored (for the notifiers), `once` alerts already raised left out.
   */
  raiseMarketAlerts(write: MarketAlertWrite): AlertRow[] {
    const ids = this.db.transaction(() => {
      const stored: number[] = [];
      for (const { once, ...alert } of write.alerts) {
        if (once && alert.ref !== undefined && this.rows.raised(alert.kind, alert.ref)) continue;
        stored.push(this.rows.insert(alert));
      }
      const fire = this.prepared('INSERT OR IGNORE INTO edge_alert_marks (ref, city_id, local_date) VALUES (?, ?, ?)');
      for (const f of write.fired) fire.run(f.ref, f.city_id, f.local_date);
      // the first pass that found it below stands: a later one does not move it
      const gone = this.prepared('UPDATE alerts SET gone_ms = ?, gone_price = ? WHERE id = ? AND gone_ms IS NULL');
      const went = (write.gone ?? []).filter((g) => gone.run(g.ms, g.price, g.id).changes > 0).map((g) => g.id);
      return { stored, went };
    })();
    if (ids.stored.length + ids.went.length === 0) return [];
    this.changes.emit({ table: 'alerts', ids: [...ids.stored, ...ids.went] });
    if (ids.stored.length === 0) return [];
    return this.q.all<AlertRow>(
      `SELECT ${PANE_COLUMNS} FROM alerts WHERE id IN (SELECT value FROM json_each(?)) ORDER BY id`,
      JSON.stringify(ids.stored),
    );
  }

  /**
   * The edge alerts of a city-day the board may still show (not gone yet), whatever their acknowledgement: the
   * trader-alert pass checks each against the board as of now. A city-day raises one or two.
   */
  liveEdges(cityId: string, date: string): LiveEdgeAlert[] {
    return this.q.all<LiveEdgeAlert>(
      `SELECT id, ref, message FROM alerts INDEXED BY alerts_kind_ref
       WHERE kind = 'edge' AND ref >= ? AND ref < ? AND city_id = ? AND gone_ms IS NULL ORDER BY id`,
      `${cityId}|${date}|`,
      `${cityId}|${date}}`,
      cityId,
    );
  }

  /** The edge alerts of a city-day that fired: their city-day-bucket-side refs. */
  firedEdges(cityId: string, date: string): Set<string> {
    const rows = this.q.all<{ ref: string }>(
      'SELECT ref FROM edge_alert_marks WHERE city_id = ? AND local_date = ?',
      cityId,
      date,
    );
    return new Set(rows.map((r) => r.ref));
  }

  /** Forgets the edge marks of market days before `date` (their markets have settled). */
  forgetEdgesBefore(date: string): void {
    this.prepared('DELETE FROM edge_alert_marks WHERE local_date < ?').run(date);
  }
}
