import type { Statement } from 'better-sqlite3';
import { sqlKind } from '../../contract/alert-kinds.js';
import type { BookHorizon } from '../../domain/book-horizon.js';
import type { NewAlert } from '../alerts.js';
import { CacheError } from '../db/cache-error.js';
import { instantMs } from '../db/time.js';

type Prepared = (sql: string) => Statement<unknown[]>;

/** Why the listener refused a delivery that reached it whole: no configured secret signs it, or it is too old. */
export type RefusalCause = 'signature' | 'replay';

/** A delivery the listener refused, as kept: never its body nor its signature. */
export interface ListenerRefusal {
  cause: RefusalCause;
  /** The listener's clock (the service's, as the cache knows it) when it arrived. */
  receivedAt: string;
  remoteAddress?: string;
  /** X-Svc-Event-Id and X-Svc-Event as sent (already cut short and cleaned by the receiver). */
  eventId?: string;
  eventType?: string;
}

/** The refusals since the last verified delivery, as the refusing rule (alerts/) reads them. */
export interface RefusalRun {
  /** Oldest first; the newest RUN_LIMIT at most. */
  refusals: { cause: RefusalCause; receivedAt: string; receivedMs: number; eventType: string | null }[];
  /** A `listener-refusing` alert was raised since the last verified delivery: the run has had its one. */
  alerted: boolean;
}

/** The rule the cache applies to the run after storing refusals (it lives in alerts/; the receiver passes it in). */
export interface ListenerAlertRules {
  refusing(run: RefusalRun): NewAlert | undefined;
}

/** What `status` and the monitor's status bar read of the listener (`cache.inbox.listenerHealth`). */
export interface ListenerHealth {
  firstVerifiedAt: string | null;
  lastVerifiedAt: string | null;
  lastRefusalAt: string | null;
  /** Why the last refusal was refused: what a standing refusing alert is about; null with none kept. */
  lastRefusalCause: RefusalCause | null;
  /** Refusals (signature or replay) received in the hour up to `nowIso`. */
  refusalsLastHour: number;
  /** A `listener-refusing` alert stands: raised after the last verified delivery (DESIGN 4). */
  refusing: boolean;
}

/** How much of a run the rule is shown: three of a cause within ten minutes is all it looks for. */
const RUN_LIMIT = 50;
/** Refusals are kept a week: enough for `status`'s hour and an operator's look back; a flood cannot fill the disk. */
export const REFUSALS_KEPT_MS = 7 * 24 * 3_600_000;
const HOUR_MS = 3_600_000;
const REFUSING = sqlKind('listener-refusing');

/**
 * Deliveries whose signature verified arrived from `firstAt` to `lastAt` (one commit's, or one delivery's): the first
 * ever is kept (the book's horizon, DESIGN 4), the last moves on.
 */
export function recordVerified(prepared: Prepared, lastAt: string, firstAt = lastAt): void {
  const ms = instantMs(lastAt);
  const firstMs = instantMs(firstAt);
  if (ms === null || firstMs === null) return;
  prepared(
    `INSERT INTO listener_verified (id, first_at, first_ms, last_at, last_ms) VALUES (1, ?, ?, ?, ?)
     ON CONFLICT (id) DO UPDATE SET last_at = excluded.last_at, last_ms = excluded.last_ms
     WHERE excluded.last_ms >= last_ms`,
  ).run(firstAt, firstMs, lastAt, ms);
}

/**
 * The monitor registered its listener with the service at `at` (the service's clock): the demo, whose service is its
 * own. The earliest registration is kept: picks reach the cache from it on (DESIGN 4 "the book's horizon").
 */
export function recordRegistered(prepared: Prepared, at: string): void {
  const ms = instantMs(at);
  if (ms === null) throw new CacheError(`registration instant '${at}' is not an ISO 8601 instant`);
  prepared(
    `INSERT INTO listener_registered (id, first_at, first_ms) VALUES (1, ?, ?)
     ON CONFLICT (id) DO UPDATE SET first_at = excluded.first_at, first_ms = excluded.first_ms
     WHERE excluded.first_ms < first_ms`,
  ).run(at, ms);
}

/**
 * The instant from which insurance picks reach the cache: the listener's registration where the monitor made it,
 * else its first verified delivery, the earlier of the two; null when neither ever happened (no listener).
 */
export function bookHorizon(get: (sql: string) => unknown): BookHorizon | null {
  const registered = get('SELECT first_at AS at, first_ms AS ms FROM listener_registered WHERE id = 1') as
    | { at: string; ms: number }
    | undefined;
  const delivered = get('SELECT first_at AS at, first_ms AS ms FROM listener_verified WHERE id = 1') as
    | { at: string; ms: number }
    | undefined;
  if (registered && (!delivered || registered.ms <= delivered.ms)) return { ...registered, from: 'registration' };
  return delivered ? { ...delivered, from: 'delivery' } : null;
}

/** The refusals stored (inside the caller's transaction), refusals older than a week forgotten. */
export function storeRefusals(prepared: Prepared, refusals: readonly ListenerRefusal[]): void {
  const insert = prepared(
    `INSERT INTO listener_refusals (cause, received_at, received_ms, remote_address, event_id, event_type)
     VALUES (?, ?, ?, ?, ?, ?)`,
  );
  let newest = Number.NEGATIVE_INFINITY;
  for (const r of refusals) {
    const ms = instantMs(r.receivedAt);
    if (ms === null) throw new CacheError(`refusal received_at '${r.receivedAt}' is not an ISO 8601 instant`);
    newest = Math.max(newest, ms);
    insert.run(r.cause, r.receivedAt, ms, r.remoteAddress ?? null, r.eventId ?? null, r.eventType ?? null);
  }
  if (Number.isFinite(newest))
    prepared('DELETE FROM listener_refusals WHERE received_ms < ?').run(newest - REFUSALS_KEPT_MS);
}

const lastVerifiedMs = (prepared: Prepared): number | null =>
  (prepared('SELECT last_ms FROM listener_verified WHERE id = 1').pluck().get() as number | undefined) ?? null;

/** The run of refusals since the last verified delivery, and whether it raised its alert already. */
export function refusalRun(prepared: Prepared): RefusalRun {
  const since = lastVerifiedMs(prepared) ?? Number.MIN_SAFE_INTEGER;
  const rows = prepared(
    `SELECT cause, received_at AS receivedAt, received_ms AS receivedMs, event_type AS eventType
     FROM listener_refusals WHERE received_ms > ? ORDER BY received_ms DESC, id DESC LIMIT ?`,
  ).all(since, RUN_LIMIT) as RefusalRun['refusals'];
  return { refusals: rows.reverse(), alerted: alertedSince(prepared, since) };
}

/**
 * The refusing alert standing (raised after the last verified delivery) whose notification has not run yet: the one
 * a listener stopped or crashed before it was shown. One raised before a delivery verified is over, never shown late.
 */
export function unnotifiedRefusing(prepared: Prepared): StandingRefusingAlert[] {
  const since = lastVerifiedMs(prepared) ?? Number.MIN_SAFE_INTEGER;
  return prepared(
    `SELECT id, severity, created_at, message FROM alerts
     WHERE kind = ${REFUSING} AND created_ms > ? AND notified_at IS NULL ORDER BY id`,
  ).all(since) as StandingRefusingAlert[];
}

/** A `listener-refusing` alert as stored, for its notification. */
export interface StandingRefusingAlert {
  id: number;
  severity: NewAlert['severity'];
  created_at: string;
  message: string;
}

const alertedSince = (prepared: Prepared, sinceMs: number): boolean =>
  prepared(`SELECT 1 FROM alerts WHERE kind = ${REFUSING} AND created_ms > ? LIMIT 1`).get(sinceMs) !== undefined;

/** The listener's health at `nowIso` (the caller's clock: the service's, as the cache knows it). */
export function listenerHealth(prepared: Prepared, nowIso: string): ListenerHealth {
  const nowMs = instantMs(nowIso);
  if (nowMs === null) throw new CacheError(`'${nowIso}' is not an ISO 8601 instant`);
  const verified = prepared('SELECT first_at, last_at, last_ms FROM listener_verified WHERE id = 1').get() as
    | { first_at: string; last_at: string; last_ms: number }
    | undefined;
  const last = prepared(
    'SELECT received_at, cause FROM listener_refusals ORDER BY received_ms DESC, id DESC LIMIT 1',
  ).get() as { received_at: string; cause: RefusalCause } | undefined;
  const hour = prepared('SELECT count(*) FROM listener_refusals WHERE received_ms > ? AND received_ms <= ?')
    .pluck()
    .get(nowMs - HOUR_MS, nowMs) as number;
  return {
    firstVerifiedAt: verified?.first_at ?? null,
    lastVerifiedAt: verified?.last_at ?? null,
    lastRefusalAt: last?.received_at ?? null,
    lastRefusalCause: last?.cause ?? null,
    refusalsLastHour: hour,
    refusing: alertedSince(prepared, verified?.last_ms ?? Number.MIN_SAFE_INTEGER),
  };
}
