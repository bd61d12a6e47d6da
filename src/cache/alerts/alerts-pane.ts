import type { Statement } from 'better-sqlite3';
import { type AlertKind, sqlKind } from '../../contract/alert-kinds.js';
import type { SqliteDb } from '../../sqlite/open-database.js';
import type { ChangeEvents } from '../db/change-events.js';
import type { CountedQueries } from '../db/counted-queries.js';
import { NOW_UNBOUNDED } from '../db/time.js';
import type { CacheTopic } from '../topics.js';
import { type AlertRow, KILL, PANE_COLUMNS } from './alert-rows.js';

/**
 * The Alerts pane lists stored alerts in segments: unacknowledged kills first, then rejected webhooks, then every
 * other unacknowledged alert, then the acknowledged ones; newest first within each by the alert's own instant
 * (`created_ms`: the reading or snapshot that made it true, DESIGN 4 "alerts in time"), then by id.
 */
const ALERT_SEGMENTS = ['kill', 'rejected', 'other', 'acknowledged'] as const;
export type AlertSegment = (typeof ALERT_SEGMENTS)[number];

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

/**
 * The tables whose change can change what each read returns, as the cache's change events name them: what a pane
 * showing the read watches. The other reads read the alerts alone.
 */
export const ALERT_READ_TOPICS = {
  // a kill's city-day is its pick's market
  unacknowledgedKillDays: ['alerts', 'insurance-picks'],
} as const satisfies Partial<Record<keyof AlertsPane, readonly CacheTopic[]>>;

/** What the Alerts pane reads (its segments a window at a time, its counts) and acknowledges; via `cache.alerts`. */
export class AlertsPane {
  constructor(
    private readonly db: SqliteDb,
    private readonly prepared: (sql: string) => Statement<unknown[]>,
    private readonly q: CountedQueries,
    private readonly changes: ChangeEvents,
  ) {}

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
}
