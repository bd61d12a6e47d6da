import type { EdgeEvent, InsuranceEvent, InsuranceLeg } from '../../contract/events.js';
import { round } from '../../domain/units.js';

/** A pick as the Positions pane and `export insurance-picks` show it: created and kill events merged. */
export interface InsurancePickView {
  pick_id: string;
  parent_pick_id: string | null;
  trade_kind: 'primary' | 'addon' | null;
  status: 'open' | 'killed';
  city_id: string;
  market_date: string;
  market_tz: string | null;
  bucket_unit: 'F' | 'C' | null;
  event_slug: string | null;
  mkta_url: string | null;
  total_cost_usd: number | null;
  legs: InsuranceLeg[];
  created_at: string | null;
  killed_at: string | null;
  kill: { sell_at_market: boolean; reason: string } | null;
  /**
   * An open addon whose own pick the cache never received (made before the book's horizon, DESIGN 4): shown apart as
   * `pick not received`, never joined to nothing. Only on the positions' reads (positions-events.ts).
   */
  parent_not_received?: true;
}

type EdgeTrade = EdgeEvent['trade'];

/** An edge-engine position: its entry and its exit as the engine reported them. */
export interface EdgeTradeView {
  engine_trade_id: number;
  status: 'open' | 'exited';
  city_id: string;
  market_date: string;
  event_slug: string;
  mkta_url: string;
  side: 'YES' | 'NO';
  bucket_label: string;
  entry: EdgeTrade | null;
  exit: EdgeTrade | null;
  /** Exit proceeds less entry cost, once both are known. */
  pnl_usd: number | null;
}

/** The columns of `insurance_picks` a view is made from. */
export const PICK_COLUMNS = 'pick_id, parent_pick_id, city_id, market_date, status, created_json, kill_json';

export interface PickRow {
  pick_id: string;
  parent_pick_id: string | null;
  city_id: string;
  market_date: string;
  status: 'open' | 'killed';
  created_json: string | null;
  kill_json: string | null;
}

/** A pick's stored row as the view shows it. */
export function pickView(row: PickRow): InsurancePickView {
  const created = row.created_json === null ? undefined : (JSON.parse(row.created_json) as InsuranceEvent);
  const killed = row.kill_json === null ? undefined : (JSON.parse(row.kill_json) as InsuranceEvent);
  const source = (created ?? killed) as InsuranceEvent;
  return {
    pick_id: row.pick_id,
    parent_pick_id: row.parent_pick_id,
    trade_kind: created?.trade.trade_kind ?? null,
    status: row.status,
    city_id: row.city_id,
    market_date: row.market_date,
    market_tz: source.market.market_tz,
    bucket_unit: source.market.bucket_unit,
    event_slug: source.market.event_slug,
    mkta_url: source.market.mkta_url,
    total_cost_usd: created?.trade.total_cost_usd ?? null,
    legs: source.legs,
    created_at: created?.created_at ?? null,
    killed_at: killed?.created_at ?? null,
    kill: killed?.kill ?? null,
  };
}

/** The columns of `edge_trades` a view is made from. */
export const TRADE_COLUMNS = 'engine_trade_id, status, entry_json, exit_json';

export interface TradeRow {
  engine_trade_id: number;
  status: 'open' | 'exited';
  entry_json: string | null;
  exit_json: string | null;
}

/** An edge trade's stored row as the view shows it. */
export function tradeView(row: TradeRow): EdgeTradeView {
  const entry = row.entry_json === null ? undefined : (JSON.parse(row.entry_json) as EdgeEvent);
  const exit = row.exit_json === null ? undefined : (JSON.parse(row.exit_json) as EdgeEvent);
  const source = (entry ?? exit) as EdgeEvent;
  return {
    engine_trade_id: row.engine_trade_id,
    status: row.status,
    city_id: source.market.city,
    market_date: source.market.market_date,
    event_slug: source.market.event_slug,
    mkta_url: source.market.mkta_url,
    side: source.trade.side,
    bucket_label: source.trade.bucket_label,
    entry: entry?.trade ?? null,
    exit: exit?.trade ?? null,
    pnl_usd: entry && exit ? round(exit.trade.total_usd - entry.trade.total_usd) : null,
  };
}
