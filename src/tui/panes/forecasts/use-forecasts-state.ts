import { useCallback } from 'react';
import { boardDay } from '../../../board/board-day.js';
import { readMarketDay } from '../../../board/market-day.js';
import type { Cache } from '../../../cache/index.js';
import type { City } from '../../../contract/cities.js';
import type { SettlementConfig } from '../../../contract/config.js';
import { localDate, localDay } from '../../../domain/city-time.js';
import { holdingsOf } from '../../../domain/held-buckets.js';
import { useCacheQuery } from '../../hooks/use-cache-query.js';
import { useNow } from '../../hooks/use-now.js';
import { type ScrollActions, useScrollState } from '../../hooks/use-scroll-state.js';
import { type CacheTopic, POSITION_TOPICS } from '../../state/cache-topics.js';
import { useDeps, useUiState } from '../../state/monitor-context.js';
import { useReplayInstant } from '../../state/replay-context.js';
import { type Line, line, seg } from '../../theme.js';
import { forecastPage } from './forecast-layout.js';

const FORECAST_TOPICS: readonly CacheTopic[] = [
  'forecasts',
  'current',
  ...POSITION_TOPICS,
  'historical/mkta_buckets_history',
  'historical/mktb_buckets_history',
  'historical/metar_observations_history',
];

/**
 * One city's forecast, readings and quotes from the cache, laid out as the pane's page: the market day of its newest
 * forecast as the board works it out (board/), the four sources now and today's METAR for the chart. Time travel
 * (`date`): the page as of `nowMs`, its pinned day's market, chart and book.
 */
function readForecastPage(
  cache: Cache,
  city: City,
  otherUnit: boolean,
  settlement: SettlementConfig,
  nowMs: number,
  width: number,
  height: number,
  date?: string,
): Line[] {
  // as of an instant only while replaying: the live page reads what stands now
  const asOf = date === undefined ? undefined : nowMs;
  const market = readMarketDay(cache, city, nowMs, { date, settlement });
  const marketUnit = market.market.unit;
  const today = date ?? localDate(nowMs, city.tz);
  // the chart is today's, whichever day the forecast is for
  const metar =
    market.date === today ? market.metar : cache.market.metarDay(city.city_id, localDay(today, city.tz), nowMs);
  return forecastPage(
    {
      city,
      marketUnit,
      unit: otherUnit ? (marketUnit === 'F' ? 'C' : 'F') : marketUnit,
      nowMs,
      primary: market.primary ?? undefined,
      ensemble: market.ensemble ?? undefined,
      range: market.range ?? undefined,
      current: cache.resources.latestCurrent(city.city_id, asOf),
      metar: metar.points,
      day: boardDay(market),
      // payoff by outcome: what is open on this market
      holdings: holdingsOf(
        cache.positions.openOfDay(city.city_id, market.date, undefined, asOf),
        city.city_id,
        market.date,
      ),
    },
    width,
    height,
  );
}

export interface ForecastsState {
  lines: Line[];
  /** The first line shown, and the last it can be. */
  offset: number;
  maxOffset: number;
  scroll: ScrollActions;
}

export function useForecastsState(cities: readonly City[], width: number, height: number): ForecastsState {
  const { now, settlement } = useDeps();
  const { city: chosen, otherUnit } = useUiState();
  const [scroll, scrollActions] = useScrollState();
  // the local clock and the chart's now mark move once a minute, not with every tick of the status bar
  const minute = Math.floor(useNow() / 60_000);
  const city = cities.find((c) => c.city_id === chosen) ?? cities[0];
  const { atMs, date } = useReplayInstant();

  // biome-ignore lint/correctness/useExhaustiveDependencies: minute is not read but re-reads the page, for the clock
  const read = useCallback(
    (cache: Cache): Line[] =>
      city
        ? readForecastPage(cache, city, otherUnit, settlement, atMs ?? now().getTime(), width, height, date)
        : [line(seg('No cities cached yet: the first sync brings them.', 'muted'))],
    [city, now, otherUnit, settlement, width, height, minute, atMs, date],
  );
  const lines = useCacheQuery(FORECAST_TOPICS, read);
  const maxOffset = Math.max(0, lines.length - height);
  const offset = Math.min(scroll.cursor, maxOffset);
  return { lines, offset, maxOffset, scroll: scrollActions };
}
