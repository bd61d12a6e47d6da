import type { FusionLock } from '../../contract/fusion-locks.js';
import { STRATEGY_FAMILIES, type StrategyFamily } from '../../contract/names.js';
import type { StrategyRecord } from '../../contract/strategies.js';
import type { BookHorizon } from '../../domain/book-horizon.js';
import { addDays } from '../../domain/city-time.js';
import { lockAsOf, marketSettlesAt, recordAsOf } from '../../domain/market-times.js';
import type { CountedQueries } from '../db/counted-queries.js';
import { strategySqlTable } from '../db/tables.js';
import { NOW_UNBOUNDED } from '../db/time.js';
import { bookHorizon } from '../inbox/listener-health.js';
import type { EdgeTradeView, InsurancePickView } from '../inbox/pick-trade-views.js';
import { addonsNotReceived, killsNotReceived, openPicksAsOf, openTradesAsOf } from './positions-events.js';

export interface OpenPositions {
  strategies: { family: StrategyFamily; record: StrategyRecord }[];
  locks: FusionLock[];
  /** Picks not killed whose market is not older than `sinceDate`, addons included. */
  picks: InsurancePickView[];
  trades: EdgeTradeView[];
  /** How many are open of each kind, counted in SQL: the lists above stop at `limit`. */
  counts: { strategies: Record<StrategyFamily, number>; locks: number; picks: number; trades: number };
  /**
   * DESIGN 4 "the book's horizon": the instant from which insurance picks reach the cache (null: none ever did), and
   * the kills, by then, of picks it never received (of the same markets as `picks`).
   */
  horizon: BookHorizon | null;
  killsNotReceived: InsurancePickView[];
}

/**
 * Open positions are bounded by the market day (each city's records, locks, picks and trades of a day or two), not
 * by the tables' size; `limit` caps each list anyway, so a cache that somehow holds thousands still reads a page.
 */
export const POSITION_LIMIT = 500;

const HOUR = 3_600_000;
/** A lock is made at its day's peak hour and settles at the local midnight after: open for less than a day. */
const LOCK_OPEN_AT_MOST = 48 * HOUR;

const utcDate = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * What the trader held at an instant: the Positions pane's one read, the board's and Forecasts' books. Every read
 * takes an instant (`atMs`, now by default; DESIGN 4 "the board as of an instant"): a record or lock exists from its
 * entry or lock time and is open until its day settles (domain/market-times.ts); the cache keeps each as it is now,
 * so one settled since is read back open. A pick is open from its created event until its kill, an edge trade from
 * its entry until its exit, each by the instant the projection stores (positions-events.ts).
 */
export class PositionRepository {
  /**
   * The records and locks of the last read by their stored text: a row unchanged since then is the object parsed
   * then, not parsed again, and a caller can tell the rows that changed by identity (incremental pricing).
   */
  private parsed = new Map<string, unknown>();

  constructor(private readonly q: CountedQueries) {}

  /** `json` parsed, or the object parsed from the same text by the last read; kept for the next one in `next`. */
  private parse<T>(json: string, next: Map<string, unknown>): T {
    const value = (this.parsed.get(json) ?? JSON.parse(json)) as T;
    next.set(json, value);
    return value;
  }

  /** Every city's zone (a handful of rows): when a record or lock enters and settles follows from it. */
  private zones(): Map<string, string> {
    const rows = this.q.all<{ city_id: string; tz: unknown }>(
      "SELECT city_id, json_extract(json, '$.tz') AS tz FROM cities",
    );
    return new Map(rows.map((r) => [r.city_id, typeof r.tz === 'string' ? r.tz : 'UTC']));
  }

  /**
   * Everything open at `atMs`. Picks have no settled state of their own (a pick that is never killed stays `open`),
   * so only those whose market date is `sinceDate` or later count as live; edge trades close with their exit event.
   * Records and locks open now are read by the open flag; those settled since are read by their market dates (a
   * record of a date can be open only within about two days of it) or lock times, and only for a past instant.
   * `counts` are exact while a list stays under `limit`.
   */
  open(sinceDate: string, limit = POSITION_LIMIT, atMs = NOW_UNBOUNDED): OpenPositions {
    const next = new Map<string, unknown>();
    const zones = this.zones();
    const tz = (cityId: string) => zones.get(cityId) ?? 'UTC';
    const past = atMs < NOW_UNBOUNDED;
    const strategyCounts = {} as Record<StrategyFamily, number>;
    const strategies = STRATEGY_FAMILIES.flatMap((family) => {
      const table = strategySqlTable(family);
      const openNow = this.q.all<{ json: string }>(
        `SELECT json FROM ${table} WHERE open = 1 ORDER BY id DESC LIMIT ?`,
        limit,
      );
      // settled since the instant: of the dates whose day has not ended in every zone by then
      const settledSince = past
        ? this.q.all<{ json: string }>(
            `SELECT json FROM ${table} INDEXED BY ${table}_date WHERE local_date >= ? AND local_date <= ? AND open = 0
             ORDER BY id DESC LIMIT ?`,
            addDays(utcDate(atMs), -2),
            addDays(utcDate(atMs), 1),
            limit,
          )
        : [];
      const asOf = (r: { json: string }) => {
        const record = this.parse<StrategyRecord>(r.json, next);
        const then = recordAsOf(record, tz(record.city_id), atMs);
        return then && then.outcome == null ? [{ family, record: then }] : [];
      };
      const opened = openNow.flatMap(asOf);
      const reopened = settledSince.flatMap(asOf);
      const openCount = this.count(`SELECT count(*) AS n FROM ${table} WHERE open = 1`);
      strategyCounts[family] = openCount - (openNow.length - opened.length) + reopened.length;
      return [...opened, ...reopened].sort((a, b) => b.record.id - a.record.id).slice(0, limit);
    });
    const lockAt = (l: FusionLock) => lockAsOf(l, marketSettlesAt(l.local_date, tz(l.city_id)), atMs);
    const unresolved = this.q
      .all<{ json: string }>(
        `SELECT json FROM fusion_locks WHERE resolved = 0 AND locked_ms <= ? ORDER BY locked_ms DESC, id DESC LIMIT ?`,
        atMs,
        limit,
      )
      .map((r) => this.parse<FusionLock>(r.json, next));
    const resolvedSince = past
      ? this.q
          .all<{ json: string }>(
            `SELECT json FROM fusion_locks INDEXED BY fusion_locks_order
             WHERE locked_ms <= ? AND locked_ms > ? AND resolved = 1 ORDER BY locked_ms DESC, id DESC LIMIT ?`,
            atMs,
            atMs - LOCK_OPEN_AT_MOST,
            limit,
          )
          .flatMap((r) => {
            const lock = lockAt(this.parse<FusionLock>(r.json, next));
            return lock && !lock.resolved ? [lock] : [];
          })
      : [];
    const locks = [...unresolved, ...resolvedSince];
    const picks = openPicksAsOf(this.q, { sinceDate }, atMs, limit);
    const trades = openTradesAsOf(this.q, { sinceDate }, atMs, limit);
    const counts = {
      strategies: strategyCounts,
      locks:
        this.count('SELECT count(*) AS n FROM fusion_locks WHERE resolved = 0 AND locked_ms <= ?', atMs) +
        resolvedSince.length,
      picks: picks.count,
      trades: trades.count,
    };
    this.parsed = next;
    return {
      strategies,
      locks,
      picks: picks.rows,
      trades: trades.rows,
      counts,
      horizon: this.horizon(),
      killsNotReceived: killsNotReceived(this.q, { sinceDate }, atMs, limit),
    };
  }

  /**
   * What was open on one city-day at `atMs` (Forecasts' payoff by outcome): the same lists as `open`, read by the day
   * rather than the newest of the whole book, so a big book costs the city-day's rows, not 500 of each kind.
   */
  openOfDay(cityId: string, date: string, limit = POSITION_LIMIT, atMs = NOW_UNBOUNDED): OpenPositions {
    const tz = this.zones().get(cityId) ?? 'UTC';
    const strategies = STRATEGY_FAMILIES.flatMap((family) =>
      this.q
        .all<{ json: string }>(
          `SELECT json FROM ${strategySqlTable(family)} INDEXED BY ${strategySqlTable(family)}_date
           WHERE local_date = ? AND city_id = ? ORDER BY id DESC LIMIT ?`,
          date,
          cityId,
          limit,
        )
        .flatMap((r) => {
          const record = recordAsOf(JSON.parse(r.json) as StrategyRecord, tz, atMs);
          return record && record.outcome == null ? [{ family, record }] : [];
        }),
    );
    const settles = marketSettlesAt(date, tz);
    const locks = this.q
      .all<{ json: string }>(
        `SELECT json FROM fusion_locks INDEXED BY fusion_locks_city
         WHERE city_id = ? AND locked_ms <= ? AND local_date = ? ORDER BY locked_ms DESC, id DESC LIMIT ?`,
        cityId,
        atMs,
        date,
        limit,
      )
      .flatMap((r) => {
        const lock = lockAsOf(JSON.parse(r.json) as FusionLock, settles, atMs);
        return lock && !lock.resolved ? [lock] : [];
      });
    const picks = openPicksAsOf(this.q, { cityId, date }, atMs, limit).rows;
    const trades = openTradesAsOf(this.q, { cityId, date }, atMs, limit).rows;
    const counts = {
      strategies: Object.fromEntries(
        STRATEGY_FAMILIES.map((f) => [f, strategies.filter((s) => s.family === f).length]),
      ) as Record<StrategyFamily, number>,
      locks: locks.length,
      picks: picks.length,
      trades: trades.length,
    };
    return {
      strategies,
      locks,
      picks,
      trades,
      counts,
      horizon: this.horizon(),
      killsNotReceived: killsNotReceived(this.q, { cityId, date }, atMs, limit),
    };
  }

  /**
   * What the book holds of picks it never received (DESIGN 4 "the book's horizon"), of markets from `sinceDate` on
   * at `atMs`: open addons whose own pick is not in the cache and kills of such picks; `status` counts them.
   */
  notReceived(
    sinceDate: string,
    atMs = NOW_UNBOUNDED,
    limit = POSITION_LIMIT,
  ): { horizon: BookHorizon | null; addons: InsurancePickView[]; kills: InsurancePickView[] } {
    return {
      horizon: this.horizon(),
      addons: addonsNotReceived(this.q, sinceDate, atMs, limit),
      kills: killsNotReceived(this.q, { sinceDate }, atMs, limit),
    };
  }

  /** The instant from which insurance picks reach the cache (listener-health.ts), read with the book. */
  private horizon(): BookHorizon | null {
    return bookHorizon((sql) => this.q.get(sql));
  }

  private count(sql: string, ...args: unknown[]): number {
    return this.q.get<{ n: number }>(sql, ...args)?.n ?? 0;
  }
}
