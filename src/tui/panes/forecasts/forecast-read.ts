import { boardDay } from '../../../board/board-day.js';
import { MARKET_DAY_TOPICS, readMarketDay } from '../../../board/market-day.js';
import { heldThroughDay } from '../../../board/read-board.js';
import { dayEnded } from '../../../board/settled-day.js';
import { type Cache, type CacheTopic, MARKET_READ_TOPICS, POSITION_TOPICS } from '../../../cache/index.js';
import type { City } from '../../../contract/cities.js';
import type { SettlementConfig } from '../../../contract/config.js';
import { localDate, localDay } from '../../../domain/city-time.js';
import { holdingsOf } from '../../../domain/held-buckets.js';
import type { SlicedRead } from '../../state/sliced-read.js';
import type { ForecastView } from './forecast-sections.js';

/**
 * What the page reads: the city's market day, today's METAR, the four sources now, the day's prices and desk through
 * the day, what is open on the day.
 */
export const FORECAST_TOPICS: readonly CacheTopic[] = [
  ...new Set<CacheTopic>([
    ...MARKET_DAY_TOPICS,
    ...MARKET_READ_TOPICS.readings,
    ...MARKET_READ_TOPICS.daySeries,
    ...POSITION_TOPICS,
  ]),
];

/** Cities whose page is kept: the one shown and the few visited before it (`c` back and forth). */
export const CITIES_KEPT = 4;

export interface ForecastParams {
  /** Null: no city cached yet. */
  city: City | null;
  nowMs: number;
  settlement: SettlementConfig;
  /** Time travel's pinned day: the page as of `nowMs` (its instant), that day's market, chart and book. */
  date?: string;
}

/** What the page of one city is laid out from (forecast-layout.ts), as read at `nowMs`: all but the unit shown. */
export type ForecastData = Omit<ForecastView, 'unit'>;

/**
 * One city's forecast, readings and quotes from the cache: the market day of its newest forecast as the board works
 * it out (board/), the four sources now and today's METAR for the chart, what is open on that market (payoff by
 * outcome). Replaying, all of it as of the instant: each layer, model and source its newest row at or before it, of
 * the polls or the history tables (a backfilled cache holds only these for a past day). A few milliseconds: the
 * market day, then the rest.
 */
export function* forecastData(
  cache: Cache,
  { city, nowMs, settlement, date }: ForecastParams,
): SlicedRead<ForecastData | null> {
  if (!city) return null;
  // as of an instant only while replaying: the live page reads what stands now
  const asOf = date === undefined ? undefined : nowMs;
  const market = readMarketDay(cache, city, nowMs, { date, settlement });
  yield;
  const today = date ?? localDate(nowMs, city.tz);
  // the chart is today's, whichever day the forecast is for
  const metar =
    market.date === today ? market.metar : cache.market.metarDay(city.city_id, localDay(today, city.tz), nowMs);
  // both venues' prices and the desk through the market day, a slice a column and venue (cache/market/day-series.ts)
  const series = yield* cache.market.daySeries(city.city_id, localDay(market.date, city.tz), {
    atMs: nowMs,
    unit: market.market.unit,
  });
  return {
    city,
    nowMs,
    marketUnit: market.market.unit,
    primary: market.primary ?? undefined,
    ensemble: market.ensemble ?? undefined,
    range: market.range ?? undefined,
    rangeFrom: market.rangeFrom,
    dayAhead: market.dayAhead,
    asOfMs: asOf,
    current: cache.market.readings(city.city_id, asOf),
    metar: metar.points,
    series,
    day: boardDay(market),
    // payoff by outcome: what is open on this market, or what was held through its end once it is over (as the board)
    holdings: holdingsOf(
      dayEnded(market)
        ? heldThroughDay(cache, city, market.date)
        : cache.positions.openOfDay(city.city_id, market.date, undefined, asOf),
      city.city_id,
      market.date,
    ),
  };
}
