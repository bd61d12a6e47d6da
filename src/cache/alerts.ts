import type { Statement } from 'better-sqlite3';
import { type AlertKind, sqlKind } from '../contract/alert-kinds.js';
import type { SqliteDb } from '../sqlite/open-database.js';
import { CacheError } from './db/cache-error.js';
import type { ChangeEvents } from './db/change-events.js';
import type { CountedQueries } from './db/counted-queries.js';
import { instantMs, NOW_UNBOUNDED } from './db/time.js';
import type { CacheTopic } from './topics.js';

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
const PANE_COLUMNS = `${ALERT_COLUMNS}, catch_up, gone_ms, gone_price`;

/** An edge alert the board still shows (not gone yet), as the trader-alert pass checks it. */
export interface LiveEdgeAlert {
  id: number;
  ref: string;
  message: string;
}

/**
 * The Alerts pane lists stored alerts in segments: unacknowledged kills first, then rejected webhooks, then every
 * other unacknowledged alert, then the acknowledged ones; newest first within each by the alert's own instant
 * (`created_ms`: the reading or snapshot that made it true, DESIGN 4 "alerts in time"), then by id.
 */
const ALERT_SEGMENTS = ['kill', 'rejected', 'other', 'acknowledged'] as const;
export type AlertSegment = (typeof ALERT_SEGMENTS)[number];

const KILL = sqlKind('kill');
const REJECTED = sqlKind('webhook-rejected');
const SEGMENT_KIND: Record<AlertSegment, string> = {
  kill: `kind = ${KILL}`,
  rejected: `kind = ${REJECTED}`,
  other: `kind NOT IN (${KILL}, ${REJECTED})`,
  acknowledged: '1',
};

/**
 * The alerts as they stood at an instant (DESIGN 4 "the board as of an instant"): raised by then (`created_ms`; a
 * kill's alert is raised at its receipt), and acknowledged only if that happened by then (`acknowledged_at`, the ISO
 * instant the TUI writes, read as epoch ms). Without an instant the state is the column itself, which the partial
 * index of unacknowledged alerts holds. `a`: the table's alias in the query, if any.
 */
function asOf(atMs: number, a = ''): { acknowledged: string; unacknowledged: string; args: unknown[] } {
  if (atMs >= NOW_UNBOUNDED)
    return {
      acknowledged: `${a}acknowledged_at IS NOT NULL`,
      unacknowledged: `${a}acknowledged_at IS NULL`,
      args: [],
    };
  const ackMs = `round((julianday(${a}acknowledged_at) - 2440587.5) * 86400000.0)`;
  return {
    acknowledged: `${a}created_ms <= ? AND ${a}acknowledged_at IS NOT NULL AND ${ackMs} <= ?`,
    unacknowledged: `${a}created_ms <= ? AND (${a}acknowledged_at IS NULL OR ${ackMs} > ?)`,
    args: [atMs, atMs],
  };
}

/** Kinds of alert left out of a read (time travel works the trader alerts out again rather than read them). */
function without(kinds: readonly AlertKind[]): { sql: string; args: unknown[] } {
  return kinds.length === 0
    ? { sql: '', args: [] }
    : { sql: ` AND kind NOT IN (${kinds.map(() => '?').join(', ')})`, args: [...kinds] };
}

/** A segment's alerts as they stood at an instant, but for the kinds `except`. */
function segmentWhere(
  segment: AlertSegment,
  atMs: number,
  except: readonly AlertKind[],
): { sql: string; args: unknown[] } {
  const state = asOf(atMs);
  const acked = segment === 'acknowledged' ? state.acknowledged : state.unacknowledged;
  const left = without(except);
  return { sql: `${acked} AND ${SEGMENT_KIND[segment]}${left.sql}`, args: [...state.args, ...left.args] };
}

/**
 * The keyset of the pane's order, (created_ms, id), from a cursor alert's id (null: from the end). Args: id, id. An
 * alert is never deleted while shown (retention keeps them whole), so the cursor's row is there.
 */
const AFTER = '(? IS NULL OR (created_ms, id) < (SELECT created_ms, id FROM alerts AS c WHERE c.id = ?))';
const BEFORE = '(? IS NULL OR (created_ms, id) > (SELECT created_ms, id FROM alerts AS c WHERE c.id = ?))';

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

/** A city whose notifications are snoozed, until when (epoch ms). */
export interface CitySnooze {
  city_id: string;
  until_ms: number;
}

/**
 * The tables whose change can change what each read returns, as the cache's change events name them: what a pane
 * showing the read watches. The other reads read the alerts alone.
 */
export const ALERT_READ_TOPICS = {
  // a kill's city-day is its pick's market
  unacknowledgedKillDays: ['alerts', 'insurance-picks'],
} as const satisfies Partial<Record<keyof AlertRepository, readonly CacheTopic[]>>;

/** The stored alerts: raised, acknowledged, their kill notifications marked, and listed for the Alerts pane. */
export class AlertRepository {
  constructor(
    private readonly db: SqliteDb,
    private readonly prepared: (sql: string) => Statement<unknown[]>,
    private readonly rows: AlertRows,
    private readonly q: CountedQueries,
    private readonly changes: ChangeEvents,
  ) {}

  /** Stores an alert and announces it; returns its id. */
  add(alert: NewAlert): number {
    const id = this.rows.insert(alert);
    this.changes.emit({ table: 'alerts', ids: [id] });
    return id;
  }

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

  /** No notification about this city until `untilMs` (its alerts are still stored). */
  snoozeCity(cityId: string, untilMs: number): void {
    this.prepared(
      `INSERT INTO alert_snoozes (city_id, until_ms) VALUES (?, ?)
       ON CONFLICT (city_id) DO UPDATE SET until_ms = excluded.until_ms`,
    ).run(cityId, untilMs);
    this.changes.emit({ table: 'alerts', ids: [] });
  }

  /** The cities snoozed at `nowMs`, the soonest to wake first. */
  snoozed(nowMs: number): CitySnooze[] {
    return this.q.all<CitySnooze>(
      'SELECT city_id, until_ms FROM alert_snoozes WHERE until_ms > ? ORDER BY until_ms, city_id',
      nowMs,
    );
  }

  /**
   * Acknowledges every alert unacknowledged now, but for those raised after the newest the trader saw (`upToId`: an
   * alert that arrived after the screen was drawn is not acknowledged unseen). Returns how many.
   */
  acknowledgeAll(at: string, upToId: number): number {
    const ids = this.q
      .all<{ id: number }>(
        'SELECT id FROM alerts INDEXED BY alerts_unacknowledged WHERE acknowledged_at IS NULL AND id <= ?',
        upToId,
      )
      .map((r) => r.id);
    if (ids.length === 0) return 0;
    const ack = this.prepared('UPDATE alerts SET acknowledged_at = ? WHERE id = ? AND acknowledged_at IS NULL');
    const done = this.db.transaction(() => ids.filter((id) => ack.run(at, id).changes > 0))();
    if (done.length > 0) this.changes.emit({ table: 'alerts', ids: done });
    return done.length;
  }

  /** The newest alert's id (0: none): what a screen drawn now has seen. */
  newestId(): number {
    return this.q.get<{ id: number | null }>('SELECT max(id) AS id FROM alerts')?.id ?? 0;
  }

  /** False when it was acknowledged already (or is not there). */
  acknowledge(id: number, at: string): boolean {
    const done =
      this.prepared('UPDATE alerts SET acknowledged_at = ? WHERE id = ? AND acknowledged_at IS NULL').run(at, id)
        .changes > 0;
    if (done) this.changes.emit({ table: 'alerts', ids: [id] });
    return done;
  }

  /** The kill alert's notification ran (or there was none to run); false when it was marked already. */
  markNotified(id: number, at: string): boolean {
    return (
      this.prepared('UPDATE alerts SET notified_at = ? WHERE id = ? AND notified_at IS NULL').run(at, id).changes > 0
    );
  }

  /**
   * Up to `limit` alerts of a segment older than the alert `afterId` (null: from the newest), newest first by their
   * own instant (`created_ms`, then id); as they stood at `atMs` (`segmentWhere`). `except`: kinds left out.
   */
  older(
    segment: AlertSegment,
    afterId: number | null,
    limit: number,
    atMs = NOW_UNBOUNDED,
    except: readonly AlertKind[] = [],
  ): AlertRow[] {
    if (limit <= 0) return [];
    const where = segmentWhere(segment, atMs, except);
    return this.q.all<AlertRow>(
      `SELECT ${PANE_COLUMNS} FROM alerts WHERE ${where.sql} AND ${AFTER} ORDER BY created_ms DESC, id DESC LIMIT ?`,
      ...where.args,
      afterId,
      afterId,
      limit,
    );
  }

  /**
   * Up to `limit` alerts of a segment newer than the alert `beforeId` (null: none), nearest first, as they stood at
   * `atMs`.
   */
  newer(
    segment: AlertSegment,
    beforeId: number | null,
    limit: number,
    atMs = NOW_UNBOUNDED,
    except: readonly AlertKind[] = [],
  ): AlertRow[] {
    if (limit <= 0) return [];
    const where = segmentWhere(segment, atMs, except);
    return this.q.all<AlertRow>(
      `SELECT ${PANE_COLUMNS} FROM alerts WHERE ${where.sql} AND ${BEFORE} ORDER BY created_ms ASC, id ASC LIMIT ?`,
      ...where.args,
      beforeId,
      beforeId,
      limit,
    );
  }

  /**
   * Alerts unacknowledged at `atMs` and how many of them are kills (now: the partial index holds only these; as of a
   * past instant, the alerts raised by then are counted), but for the kinds `except`.
   */
  counts(atMs = NOW_UNBOUNDED, except: readonly AlertKind[] = []): { unacknowledged: number; kills: number } {
    const state = asOf(atMs);
    const left = without(except);
    const row = this.q.get<{ n: number; kills: number }>(
      `SELECT count(*) AS n, coalesce(sum(kind = ${KILL}), 0) AS kills FROM alerts WHERE ${state.unacknowledged}${left.sql}`,
      ...state.args,
      ...left.args,
    );
    return { unacknowledged: row?.n ?? 0, kills: row?.kills ?? 0 };
  }

  /**
   * The city-days with a kill unacknowledged at `atMs` (raised by then: a kill alert is raised at the kill's receipt):
   * the kill alert's ref is the killed pick, whose market names the day. Now, the partial index holds only
   * unacknowledged alerts, and a trader keeps few of them; as of a past instant, the kill alerts by their kind (a
   * handful a day). `limit` bounds either.
   */
  unacknowledgedKillDays(limit = 500, atMs = NOW_UNBOUNDED): { city_id: string; market_date: string }[] {
    const state = asOf(atMs, 'a.');
    const index = atMs >= NOW_UNBOUNDED ? 'alerts_unacknowledged' : 'alerts_kind_ref';
    return this.q.all<{ city_id: string; market_date: string }>(
      `SELECT DISTINCT p.city_id, p.market_date FROM alerts AS a INDEXED BY ${index}
       JOIN insurance_picks AS p ON p.pick_id = a.ref
       WHERE ${state.unacknowledged} AND a.kind = ${KILL} LIMIT ?`,
      ...state.args,
      limit,
    );
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
