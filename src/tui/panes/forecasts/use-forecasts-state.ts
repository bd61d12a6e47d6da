import { useCallback } from 'react';
import type { Cache } from '../../../cache/index.js';
import type { City } from '../../../contract/cities.js';
import { holdingsOf } from '../../../domain/held-buckets.js';
import { fToC, marketUnitOf } from '../../../domain/units.js';
import { cityToday } from '../../format/time.js';
import { useCacheQuery } from '../../hooks/use-cache-query.js';
import { useNow } from '../../hooks/use-now.js';
import { type ScrollActions, useScrollState } from '../../hooks/use-scroll-state.js';
import { type CacheTopic, POSITION_TOPICS } from '../../state/cache-topics.js';
import { useDeps, useUiState } from '../../state/monitor-context.js';
import { type Line, line, seg } from '../../theme.js';
import { forecastPage } from './forecast-layout.js';
import { forecastView } from './forecast-sections.js';

const FORECAST_TOPICS: readonly CacheTopic[] = [
  'forecasts',
  'current',
  ...POSITION_TOPICS,
  'historical/mkta_buckets_history',
  'historical/mktb_buckets_history',
  'historical/metar_observations_history',
];

/** One city's forecast, readings and quotes from the cache, laid out as the pane's page. */
function readForecastPage(
  cache: Cache,
  city: City,
  otherUnit: boolean,
  nowMs: number,
  width: number,
  height: number,
): Line[] {
  const marketUnit = marketUnitOf(city.country);
  const unit = otherUnit ? (marketUnit === 'F' ? 'C' : 'F') : marketUnit;
  const day = cityToday(nowMs, city.tz);
  const metar = cache.market.metarDay(city.city_id, day);
  const v = forecastView(
    {
      city,
      marketUnit,
      unit,
      nowMs,
      current: cache.resources.latestCurrent(city.city_id),
      metar: metar.points,
      mkta: [],
      mktb: [],
      holdings: [],
    },
    cache.resources.latestForecasts(city.city_id),
  );
  const market = v.primary?.local_date ?? day.date;
  v.mkta = cache.market.dayQuotes('mkta', city.city_id, market);
  v.mktb = cache.market.dayQuotes('mktb', city.city_id, market);
  // payoff by outcome: what is open on this market
  v.holdings = holdingsOf(cache.positions.openOfDay(city.city_id, market), city.city_id, market);
  // the running high conditions only today's market: another day's high is not known yet, or already settled
  if (market === day.date && metar.high)
    v.runningHigh = marketUnit === 'F' ? metar.high.f : (metar.high.c ?? fToC(metar.high.f));
  return forecastPage(v, width, height);
}

export interface ForecastsState {
  lines: Line[];
  /** The first line shown, and the last it can be. */
  offset: number;
  maxOffset: number;
  scroll: ScrollActions;
}

export function useForecastsState(cities: readonly City[], width: number, height: number): ForecastsState {
  const { now } = useDeps();
  const { city: chosen, otherUnit } = useUiState();
  const [scroll, scrollActions] = useScrollState();
  // the local clock and the chart's now mark move once a minute, not with every tick of the status bar
  const minute = Math.floor(useNow() / 60_000);
  const city = cities.find((c) => c.city_id === chosen) ?? cities[0];

  // biome-ignore lint/correctness/useExhaustiveDependencies: minute is not read but re-reads the page, for the clock
  const read = useCallback(
    (cache: Cache): Line[] =>
      city
        ? readForecastPage(cache, city, otherUnit, now().getTime(), width, height)
        : [line(seg('No cities cached yet: the first sync brings them.', 'muted'))],
    [city, now, otherUnit, width, height, minute],
  );
  const lines = useCacheQuery(FORECAST_TOPICS, read);
  const maxOffset = Math.max(0, lines.length - height);
  const offset = Math.min(scroll.cursor, maxOffset);
  return { lines, offset, maxOffset, scroll: scrollActions };
}
