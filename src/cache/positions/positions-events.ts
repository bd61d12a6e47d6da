import type { CountedQueries } from '../db/counted-queries.js';
import { Where } from '../db/where.js';
import {
  type EdgeTradeView,
  type InsurancePickView,
  PICK_COLUMNS,
  type PickRow,
  pickView,
  TRADE_COLUMNS,
  type TradeRow,
  tradeView,
} from '../inbox/pick-trade-views.js';

/** Which picks or trades: those of markets from `sinceDate` on (the whole book), or of one city-day. */
export type EventScope = { sinceDate: string } | { cityId: string; date: string };

/**
 * A position the webhook events open and close, as its table keeps it: opened at `opened` (an instant column), open
 * while `status = 'open'`, closed at `closed` (an instant column with an index of its own).
 */
interface EventPositions<Row> {
  table: string;
  columns: string;
  opened: string;
  closed: string;
  closedIndex: string;
  order: string;
  /** The stored row as it stood before its closing event. */
  reopen(row: Row): Row;
  compare(a: Row, b: Row): number;
}

/**
 * The positions of one kind open at `atMs`: opened by then and not closed by then. Open now: by the status; closed
 * since: by the closing time's index, so only those closed after the instant are read (none now), each shown as it
 * stood before (no closing event). `count` counts both in SQL.
 */
function openAsOf<Row>(
  q: CountedQueries,
  kind: EventPositions<Row>,
  scope: EventScope,
  atMs: number,
  limit: number,
): { rows: Row[]; count: number } {
  const where = () => {
    const w = new Where();
    if ('sinceDate' in scope) w.add('market_date >= ?', scope.sinceDate);
    else w.add('market_date = ? AND city_id = ?', scope.date, scope.cityId);
    return w;
  };
  const open = where();
  open.add(`status = 'open' AND (${kind.opened} IS NULL OR ${kind.opened} <= ?)`, atMs);
  const closedSince = where();
  closedSince.add(`${kind.closed} > ? AND ${kind.opened} <= ?`, atMs, atMs);
  const read = (w: Where, from: string) =>
    q.all<Row>(`SELECT ${kind.columns} FROM ${from}${w} ORDER BY ${kind.order} LIMIT ?`, ...w.args, limit);
  const rows = [
    ...read(open, kind.table),
    ...read(closedSince, `${kind.table} INDEXED BY ${kind.closedIndex}`).map(kind.reopen),
  ]
    .sort(kind.compare)
    .slice(0, limit);
  const count = (w: Where) => q.get<{ n: number }>(`SELECT count(*) AS n FROM ${kind.table}${w}`, ...w.args)?.n ?? 0;
  return { rows, count: count(open) + count(closedSince) };
}

type TimedPick = PickRow & { created_ms: number | null };

/** Insurance picks: open from the created event's `created_at` until the kill's (the instants the projection keeps). */
const PICKS: EventPositions<TimedPick> = {
  table: 'insurance_picks',
  columns: `${PICK_COLUMNS}, created_ms`,
  opened: 'created_ms',
  closed: 'killed_ms',
  closedIndex: 'insurance_picks_killed',
  order: 'created_ms DESC, pick_id',
  reopen: (r) => ({ ...r, status: 'open', kill_json: null }),
  compare: (a, b) => (b.created_ms ?? 0) - (a.created_ms ?? 0) || (a.pick_id < b.pick_id ? -1 : 1),
};

/** Edge trades: open from the entry's `executed_at` until the exit's. */
const TRADES: EventPositions<TradeRow> = {
  table: 'edge_trades',
  columns: TRADE_COLUMNS,
  opened: 'entered_ms',
  closed: 'exited_ms',
  closedIndex: 'edge_trades_exited',
  order: 'engine_trade_id DESC',
  reopen: (r) => ({ ...r, status: 'open', exit_json: null }),
  compare: (a, b) => b.engine_trade_id - a.engine_trade_id,
};

/**
 * The insurance picks open at `atMs`, newest first; a pick killed since is shown without its kill. An addon whose
 * own pick the cache never received (made before the book's horizon, DESIGN 4) says so: `parent_not_received`.
 */
export function openPicksAsOf(
  q: CountedQueries,
  scope: EventScope,
  atMs: number,
  limit: number,
): { rows: InsurancePickView[]; count: number } {
  const { rows, count } = openAsOf(q, PICKS, scope, atMs, limit);
  const missing = parentsNotReceived(q, rows);
  return {
    rows: rows.map(({ created_ms: _c, ...row }) => {
      const view = pickView(row);
      return row.parent_pick_id !== null && missing.has(row.parent_pick_id)
        ? { ...view, parent_not_received: true }
        : view;
    }),
    count,
  };
}

/** Of the addons' parents, those the cache holds no created event of: never received, or only their kill. */
function parentsNotReceived(q: CountedQueries, rows: readonly PickRow[]): Set<string> {
  const parents = [...new Set(rows.flatMap((r) => (r.parent_pick_id === null ? [] : [r.parent_pick_id])))];
  if (parents.length === 0) return new Set();
  const received = new Set(
    q
      .all<{ pick_id: string }>(
        `SELECT pick_id FROM insurance_picks WHERE created_json IS NOT NULL AND pick_id IN (SELECT value FROM json_each(?))`,
        JSON.stringify(parents),
      )
      .map((r) => r.pick_id),
  );
  return new Set(parents.filter((id) => !received.has(id)));
}

/**
 * The open addons (by `atMs`) of markets from `sinceDate` on whose own pick the cache never received (`status`'s
 * count of them; Positions reads them with the book, openPicksAsOf).
 */
export function addonsNotReceived(
  q: CountedQueries,
  sinceDate: string,
  atMs: number,
  limit: number,
): InsurancePickView[] {
  return q
    .all<PickRow>(
      `SELECT ${PICK_COLUMNS} FROM insurance_picks AS a INDEXED BY insurance_picks_status
       WHERE a.status = 'open' AND a.created_ms <= ? AND a.parent_pick_id IS NOT NULL AND a.market_date >= ?
         AND NOT EXISTS (SELECT 1 FROM insurance_picks AS p WHERE p.pick_id = a.parent_pick_id
           AND p.created_json IS NOT NULL)
       ORDER BY a.created_ms DESC LIMIT ?`,
      atMs,
      sinceDate,
      limit,
    )
    .map((row) => ({ ...pickView(row), parent_not_received: true as const }));
}

/**
 * Kills of picks the cache never received (only the kill event arrived: the pick was made before the book's
 * horizon), killed by `atMs`, newest first: Positions lists them apart, as `pick not received`, rather than drop them.
 */
export function killsNotReceived(
  q: CountedQueries,
  scope: EventScope,
  atMs: number,
  limit: number,
): InsurancePickView[] {
  const w = new Where();
  if ('sinceDate' in scope) w.add('market_date >= ?', scope.sinceDate);
  else w.add('market_date = ? AND city_id = ?', scope.date, scope.cityId);
  // a kill alone has no created instant: (status, created_ms) finds those few rows among a year of picks
  w.add("status = 'killed' AND created_ms IS NULL AND created_json IS NULL AND killed_ms <= ?", atMs);
  return q
    .all<PickRow>(
      `SELECT ${PICK_COLUMNS} FROM insurance_picks INDEXED BY insurance_picks_status${w}
       ORDER BY killed_ms DESC, pick_id LIMIT ?`,
      ...w.args,
      limit,
    )
    .map(pickView);
}

/** The edge trades open at `atMs`, newest first; a trade exited since is shown without its exit or P&L. */
export function openTradesAsOf(
  q: CountedQueries,
  scope: EventScope,
  atMs: number,
  limit: number,
): { rows: EdgeTradeView[]; count: number } {
  const { rows, count } = openAsOf(q, TRADES, scope, atMs, limit);
  return { rows: rows.map(tradeView), count };
}
