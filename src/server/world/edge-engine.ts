import type { CityAsset } from '../../contract/assets.js';
import type { EdgeEvent } from '../../contract/events.js';
import { LIMITS } from '../../contract/limits.js';
import { isoUtc, isoWithOffset, localHour } from '../../domain/city-time.js';
import { bucketProbability } from '../../domain/settlement.js';
import { round } from '../../domain/units.js';
import { worldMarket } from './cities.js';
import type { WorldContext } from './context.js';
import { askOf } from './market.js';
import { derivedUuid } from './noise.js';

const STAKE = LIMITS.stakeUsd;
const ENTRY_EDGE = 0.05;
const EXIT_EDGE = 0.01;
const SLIPPAGE_BPS = 150;

export interface EdgePosition {
  engine_trade_id: number;
  city_id: string;
  local_date: string;
  event_slug: string;
  bucket_slug: string;
  bucket_label: string;
  side: 'YES' | 'NO';
  entry_price: number;
  qty: number;
  entered_at: string;
}

/**
 * The edge engine: during trading hours it buys the side of the bucket where the primary forecast and the venue
 * disagree most (edge above 5 points), sells when the edge has faded below 1 point, and settles what is left
 * after the market closes. Every entry and exit is an event for webhook delivery.
 */
export function edgeTick(ctx: WorldContext, city: CityAsset, ms: number): void {
  const hour = localHour(ms, city.tz);
  if (hour < 8 || hour > 20) return;
  const forecast = ctx.desk.primary(city, ms);
  // the service knows how its markets settle: on whole degrees C of METAR (DESIGN 4, domain/settlement.ts)
  const market = worldMarket(city);
  const quotes = ctx.markets.quotes('mkta', city, forecast.date, ms).map((q) => ({
    ...q,
    prob: bucketProbability(q.bucket, market, forecast, forecast.runningMaxC) ?? 0,
  }));
  const open = ctx.store.openEdgePositions<EdgePosition>(city.city_id).filter((p) => p.local_date === forecast.date);
  for (const position of open) {
    const quote = quotes.find((q) => q.bucket.slug === position.bucket_slug);
    if (!quote) continue;
    const edge = position.side === 'YES' ? quote.prob - quote.yes : 1 - quote.prob - quote.no;
    if (edge < EXIT_EDGE) {
      // a sale gets the bid: what the other side costs, taken from 1
      const price = round(1 - (position.side === 'YES' ? quote.no : quote.yes), 3);
      close(ctx, city, position, 'SELL', price, ms, `edge faded to ${round(edge * 100, 1)} pts`);
    }
  }
  if (open.length > 0) return;
  const best = quotes.reduce((a, b) => (Math.abs(b.prob - b.yes) > Math.abs(a.prob - a.yes) ? b : a));
  const edge = best.prob - best.yes;
  if (Math.abs(edge) < ENTRY_EDGE) return;
  const side = edge > 0 ? 'YES' : 'NO';
  const price = askOf(side === 'YES' ? best.yes : best.no);
  const position: EdgePosition = {
    engine_trade_id: ctx.store.nextEdgeTradeId(),
    city_id: city.city_id,
    local_date: forecast.date,
    event_slug: ctx.markets.event(city, forecast.date).eventSlug,
    bucket_slug: best.bucket.slug,
    bucket_label: best.bucket.label,
    side,
    entry_price: price,
    qty: round(STAKE / price, 2),
    entered_at: isoUtc(ms),
  };
  ctx.store.putEdgePosition(position.engine_trade_id, city.city_id, position.local_date, true, position);
  emit(
    ctx,
    city,
    position,
    'edge.trade.entered',
    'BUY',
    price,
    ms,
    `model ${round(best.prob * 100, 1)}% vs price ${round(best.yes * 100, 1)}%`,
  );
}

/** Settles open positions of closed markets at 1 or 0. */
export function settleEdge(ctx: WorldContext, city: CityAsset, beforeDate: string, ms: number): void {
  for (const position of ctx.store.openEdgePositions<EdgePosition>(city.city_id)) {
    if (position.local_date >= beforeDate) continue;
    const bucketHit = ctx.markets.settledBucket(city, position.local_date).slug === position.bucket_slug;
    const won = position.side === 'YES' ? bucketHit : !bucketHit;
    close(ctx, city, position, 'SETTLE', won ? 1 : 0, ms, `market settled ${won ? 'in' : 'against'} the position`);
  }
}

function close(
  ctx: WorldContext,
  city: CityAsset,
  position: EdgePosition,
  operation: 'SELL' | 'SETTLE',
  price: number,
  ms: number,
  reason: string,
): void {
  ctx.store.putEdgePosition(position.engine_trade_id, city.city_id, position.local_date, false, {
    ...position,
    exit_price: price,
    exited_at: isoUtc(ms),
  });
  ctx.store.insertHistorical('edge_resolved', position.local_date, {
    city_id: city.city_id,
    local_date: position.local_date,
    engine_trade_id: position.engine_trade_id,
    event_slug: position.event_slug,
    bucket_slug: position.bucket_slug,
    bucket_label: position.bucket_label,
    side: position.side,
    entry_price: position.entry_price,
    exit_price: price,
    qty: position.qty,
    operation,
    pnl_usd: round((price - position.entry_price) * position.qty, 2),
    entered_at: position.entered_at,
    resolved_at: isoUtc(ms),
  });
  emit(ctx, city, position, 'edge.trade.exited', operation, price, ms, reason);
}

function emit(
  ctx: WorldContext,
  city: CityAsset,
  position: EdgePosition,
  eventType: EdgeEvent['event_type'],
  operation: EdgeEvent['trade']['operation'],
  price: number,
  ms: number,
  reason: string,
): void {
  const event = ctx.markets.event(city, position.local_date);
  const payload: EdgeEvent = {
    event_type: eventType,
    market: { city: city.city_id, market_date: position.local_date, event_slug: event.eventSlug, mkta_url: event.url },
    trade: {
      engine_trade_id: position.engine_trade_id,
      operation,
      side: position.side,
      bucket_label: position.bucket_label,
      price,
      qty: position.qty,
      total_usd: round(price * position.qty, 2),
      reason,
      executed_at: isoWithOffset(ms),
      max_slippage_bps: SLIPPAGE_BPS,
    },
  };
  const eventId = derivedUuid(ctx.seed, 'edge', position.engine_trade_id, operation);
  ctx.store.addWorldEvent(eventId, eventType, isoUtc(ms), payload);
}
