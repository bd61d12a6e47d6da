import type { Statement } from 'better-sqlite3';
import type { ChangeEvents } from '../db/change-events.js';
import type { CountedQueries } from '../db/counted-queries.js';

/** A city whose notifications are snoozed, until when (epoch ms). */
export interface CitySnooze {
  city_id: string;
  until_ms: number;
}

/** The cities whose notifications the trader snoozed; served through `cache.alerts`. */
export class AlertSnoozes {
  constructor(
    private readonly prepared: (sql: string) => Statement<unknown[]>,
    private readonly q: CountedQueries,
    private readonly changes: ChangeEvents,
  ) {}

  /** No notification about this city until `untilMs` (its alerts are still stored). */
  snoozeCity(cityId: string, untilMs: number): void {
    this.prepared(
      `INSERT INTO alert_snoozes (city_id, until_ms) VALUES (?, ?)
       ON CONFLICT (city_id) DO UPDATE SET until_ms = excluded.until_ms`,
    ).run(cityId, untilMs);
    // announced as an alerts change: the panes that show snoozes watch the alerts
    this.changes.emit({ table: 'alerts', ids: [] });
  }

  /** The cities snoozed at `nowMs`, the soonest to wake first. */
  snoozed(nowMs: number): CitySnooze[] {
    return this.q.all<CitySnooze>(
      'SELECT city_id, until_ms FROM alert_snoozes WHERE until_ms > ? ORDER BY until_ms, city_id',
      nowMs,
    );
  }
}
