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

/** The insurance picks open at `atMs`, newest first; a pick killed since is shown without its kill. */
export function openPicksAsOf(
  q: CountedQueries,
  scope: EventScope,
  atMs: number,
  limit: number,
): { rows: InsurancePickView[]; count: number } {
  const { rows, count } = openAsOf(q, PICKS, scope, atMs, limit);
  return { rows: rows.map(({ created_ms: _c, ...row }) => pickView(row)), count };
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
