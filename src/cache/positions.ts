import type { FusionLock } from '../contract/fusion-locks.js';
import { STRATEGY_FAMILIES, type StrategyFamily, type StrategyRecord } from '../contract/strategies.js';
import type { CountedQueries } from './db/counted-queries.js';
import { strategySqlTable } from './db/tables.js';
import {
  type EdgeTradeView,
  type InsurancePickView,
  PICK_COLUMNS,
  type PickRow,
  pickView,
  TRADE_COLUMNS,
  type TradeRow,
  tradeView,
} from './inbox/pick-trade-views.js';

export interface OpenPositions {
  strategies: { family: StrategyFamily; record: StrategyRecord }[];
  locks: FusionLock[];
  /** Picks not killed whose market is not older than `sinceDate`, addons included. */
  picks: InsurancePickView[];
  trades: EdgeTradeView[];
  /** How many are open of each kind, counted in SQL: the lists above stop at `limit`. */
  counts: { strategies: Record<StrategyFamily, number>; locks: number; picks: number; trades: number };
}

/**
 * Open positions are bounded by the market day (each city's records, locks, picks and trades of a day or two), not
 * by the tables' size; `limit` caps each list anyway, so a cache that somehow holds thousands still reads a page.
 */
const POSITION_LIMIT = 500;

/** What the trader holds now: the Positions pane's one read. */
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

  /**
   * Everything open. Picks have no settled state of their own (a pick that is never killed stays `open`), so only
   * those whose market date is `sinceDate` or later count as live; edge trades close with their exit event.
   */
  open(sinceDate: string, limit = POSITION_LIMIT): OpenPositions {
    const next = new Map<string, unknown>();
    const strategies = STRATEGY_FAMILIES.flatMap((family) =>
      this.q
        .all<{ json: string }>(
          `SELECT json FROM ${strategySqlTable(family)} WHERE open = 1 ORDER BY id DESC LIMIT ?`,
          limit,
        )
        .map((r) => ({ family, record: this.parse<StrategyRecord>(r.json, next) })),
    );
    const locks = this.q
      .all<{ json: string }>(
        'SELECT json FROM fusion_locks WHERE resolved = 0 ORDER BY locked_ms DESC, id DESC LIMIT ?',
        limit,
      )
      .map((r) => this.parse<FusionLock>(r.json, next));
    const picks = this.q
      .all<PickRow>(
        `SELECT ${PICK_COLUMNS} FROM insurance_picks WHERE status = 'open' AND market_date >= ?
         ORDER BY created_ms DESC, pick_id LIMIT ?`,
        sinceDate,
        limit,
      )
      .map(pickView);
    const trades = this.q
      .all<TradeRow>(
        `SELECT ${TRADE_COLUMNS} FROM edge_trades WHERE status = 'open' AND market_date >= ?
         ORDER BY engine_trade_id DESC LIMIT ?`,
        sinceDate,
        limit,
      )
      .map(tradeView);
    const count = (sql: string, ...args: unknown[]) => this.q.get<{ n: number }>(sql, ...args)?.n ?? 0;
    const counts = {
      strategies: Object.fromEntries(
        STRATEGY_FAMILIES.map((f) => [f, count(`SELECT count(*) AS n FROM ${strategySqlTable(f)} WHERE open = 1`)]),
      ) as Record<StrategyFamily, number>,
      locks: count('SELECT count(*) AS n FROM fusion_locks WHERE resolved = 0'),
      picks: count("SELECT count(*) AS n FROM insurance_picks WHERE status = 'open' AND market_date >= ?", sinceDate),
      trades: count("SELECT count(*) AS n FROM edge_trades WHERE status = 'open' AND market_date >= ?", sinceDate),
    };
    this.parsed = next;
    return { strategies, locks, picks, trades, counts };
  }

  /**
   * What is open on one city-day (Forecasts' payoff by outcome): the same lists as `open`, read by the day rather
   * than the newest of the whole book, so a big book costs the city-day's rows, not 500 of each kind.
   */
  openOfDay(cityId: string, date: string, limit = POSITION_LIMIT): OpenPositions {
    const strategies = STRATEGY_FAMILIES.flatMap((family) =>
      this.q
        .all<{ json: string }>(
          `SELECT json FROM ${strategySqlTable(family)} INDEXED BY ${strategySqlTable(family)}_date
           WHERE local_date = ? AND city_id = ? AND open = 1 ORDER BY id DESC LIMIT ?`,
          date,
          cityId,
          limit,
        )
        .map((r) => ({ family, record: JSON.parse(r.json) as StrategyRecord })),
    );
    const locks = this.q
      .all<{ json: string }>(
        `SELECT json FROM fusion_locks INDEXED BY fusion_locks_city
         WHERE city_id = ? AND local_date = ? AND resolved = 0 ORDER BY locked_ms DESC, id DESC LIMIT ?`,
        cityId,
        date,
        limit,
      )
      .map((r) => JSON.parse(r.json) as FusionLock);
    const picks = this.q
      .all<PickRow>(
        `SELECT ${PICK_COLUMNS} FROM insurance_picks WHERE status = 'open' AND market_date = ? AND city_id = ?
         ORDER BY created_ms DESC, pick_id LIMIT ?`,
        date,
        cityId,
        limit,
      )
      .map(pickView);
    const trades = this.q
      .all<TradeRow>(
        `SELECT ${TRADE_COLUMNS} FROM edge_trades WHERE status = 'open' AND market_date = ? AND city_id = ?
         ORDER BY engine_trade_id DESC LIMIT ?`,
        date,
        cityId,
        limit,
      )
      .map(tradeView);
    const counts = {
      strategies: Object.fromEntries(
        STRATEGY_FAMILIES.map((f) => [f, strategies.filter((s) => s.family === f).length]),
      ) as Record<StrategyFamily, number>,
      locks: locks.length,
      picks: picks.length,
      trades: trades.length,
    };
    return { strategies, locks, picks, trades, counts };
  }
}
