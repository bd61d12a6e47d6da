import { setImmediate as nextTurn } from 'node:timers/promises';
import type { AlertRow, Cache, OpenPositions } from '../cache/index.js';
import type { City } from '../contract/cities.js';
import type { ModelTmaxRange, SvcProForecast } from '../contract/forecasts.js';
import { addDays, instantAtLocal, isoUtc, localDate } from '../domain/city-time.js';
import { holdingsOf } from '../domain/held-buckets.js';
import { fToC, marketUnitOf } from '../domain/units.js';
import { type CityDayMarket, marketAlerts } from './market-alerts.js';

/** Edge marks are kept this many days past their market: a market settles the day after, at the latest. */
const MARK_DAYS = 3;

/**
 * One city's market of today as the rules see it, read from the cache by its bounded reads: today's METAR readings,
 * the newest forecast layers, the newest quote of each bucket on both venues, and the open holdings of the day.
 */
export function readCityDay(cache: Cache, city: City, nowMs: number, open: OpenPositions): CityDayMarket {
  const unit = marketUnitOf(city.country);
  const date = localDate(nowMs, city.tz);
  const day = {
    date,
    startMs: instantAtLocal(date, 0, 0, city.tz),
    endMs: instantAtLocal(addDays(date, 1), 0, 0, city.tz),
  };
  const { high } = cache.market.metarDay(city.city_id, day);
  const runningHigh = high ? (unit === 'F' ? high.f : (high.c ?? fToC(high.f))) : undefined;
  const layers = cache.resources.latestForecasts(city.city_id);
  // a layer for another day (yesterday's, before the service rolled over) says nothing about today's market
  const layer = <T>(name: string) =>
    layers.find((r) => r.layer === name && r.local_date === date) as unknown as T | undefined;
  const primary = layer<SvcProForecast>('svc_pro_forecast');
  const range = layer<ModelTmaxRange>('model_tmax_range');
  return {
    cityId: city.city_id,
    date,
    unit,
    runningHigh,
    forecast: primary
      ? unit === 'F'
        ? { mu: primary.predicted_max_f, sigma: primary.sigma_f }
        : { mu: primary.predicted_max_c, sigma: primary.sigma_c }
      : null,
    modelsMax: range ? (unit === 'F' ? range.tmax_max_f : range.tmax_max_c) : null,
    quotes: {
      mkta: cache.market.dayQuotes('mkta', city.city_id, date),
      mktb: cache.market.dayQuotes('mktb', city.city_id, date),
    },
    holdings: holdingsOf(open, city.city_id, date),
  };
}

/**
 * The trader alert rules over every cached city's market of today, after fresh market data landed. Each city is
 * read and written in its own short turn (one transaction), yielding to the event loop in between, so a webhook
 * listener in the same process is never held up by more than one city's reads. Returns the alerts it stored.
 */
export async function runMarketAlerts(cache: Cache, edgeMin: number, now: Date): Promise<AlertRow[]> {
  const nowMs = now.getTime();
  const createdAt = now.toISOString();
  // the earliest local date of any city today is no earlier than yesterday in UTC
  const open = cache.positions.open(addDays(isoUtc(nowMs).slice(0, 10), -1));
  const stored: AlertRow[] = [];
  for (const city of cache.resources.cities()) {
    const market = readCityDay(cache, city, nowMs, open);
    const fired = cache.alerts.firedEdges(city.city_id, market.date);
    stored.push(...cache.alerts.raiseMarketAlerts(marketAlerts(market, edgeMin, fired, createdAt)));
    await nextTurn();
  }
  cache.alerts.forgetEdgesBefore(addDays(isoUtc(nowMs).slice(0, 10), -MARK_DAYS));
  return stored;
}
