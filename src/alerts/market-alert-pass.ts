import { setImmediate as nextTurn } from 'node:timers/promises';
import { type AlertRow, type Cache, type OpenPositions, shortBusyWrites, writeWhenFree } from '../cache/index.js';
import type { City } from '../contract/cities.js';
import type { ModelTmaxRange, SvcProForecast } from '../contract/forecasts.js';
import { addDays, localDate, localDay } from '../domain/city-time.js';
import { holdingsOf } from '../domain/held-buckets.js';
import { fToC, marketUnitOf } from '../domain/units.js';
import { type CityDayMarket, marketAlerts } from './market-alerts.js';

/** Edge marks are kept this many days past their market: a market settles the day after, at the latest. */
const MARK_DAYS = 3;
/** How long one city's write waits, from a timer, for another process's write lock; then the pass gives up. */
const WRITE_DEADLINE_MS = 30_000;

/**
 * The market day the rules watch for a city: the date of its newest `svc_pro_forecast` (the service's current market
 * day, which follows the world's clock, not this machine's), else the city's date on `nowMs`.
 */
export function marketDateOf(cache: Cache, city: City, nowMs: number): string {
  const primary = cache.resources.latestForecasts(city.city_id).find((r) => r.layer === 'svc_pro_forecast');
  return primary?.local_date ?? localDate(nowMs, city.tz);
}

/**
 * One city's market day as the rules see it, read from the cache by its bounded reads: the day's METAR readings (its
 * running high), the forecast layers of that date, the newest quote of each bucket on both venues, and the open
 * holdings of the day.
 */
export function readCityDay(cache: Cache, city: City, date: string, open: OpenPositions): CityDayMarket {
  const unit = marketUnitOf(city.country);
  const day = localDay(date, city.tz);
  // a day not begun has no reading: its market is not conditioned on a high yet
  const { high } = cache.market.metarDay(city.city_id, day);
  const runningHigh = high ? (unit === 'F' ? high.f : (high.c ?? fToC(high.f))) : undefined;
  const layers = cache.resources.latestForecasts(city.city_id);
  // a layer for another day (yesterday's, before the service rolled over) says nothing about this market
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
 * The trader alert rules over every cached city's market day, after fresh market data landed. Each city is read and
 * written in its own short turn (one transaction), yielding to the event loop in between, so a webhook listener in
 * the same process is never held up by more than one city's reads. A write meeting another process's lock (a
 * `sync` or `listen` on the same file) waits from a timer, as the listener's writes do (cache/busy-writes.ts), never
 * inside SQLite on the event loop. Returns the alerts it stored.
 */
export async function runMarketAlerts(cache: Cache, edgeMin: number, now: Date): Promise<AlertRow[]> {
  const nowMs = now.getTime();
  const createdAt = now.toISOString();
  const days = cache.resources.cities().map((city) => ({ city, date: marketDateOf(cache, city, nowMs) }));
  if (days.length === 0) return [];
  const earliest = days.map((d) => d.date).reduce((a, b) => (a < b ? a : b));
  const open = cache.positions.open(earliest);
  const run = shortBusyWrites(cache);
  const write = <T>(work: () => T) => writeWhenFree(run, work, Date.now() + WRITE_DEADLINE_MS);
  const stored: AlertRow[] = [];
  for (const { city, date } of days) {
    const market = readCityDay(cache, city, date, open);
    const fired = cache.alerts.firedEdges(city.city_id, date);
    const found = marketAlerts(market, edgeMin, fired, createdAt);
    if (found.alerts.length + found.fired.length + found.rearmed.length > 0)
      stored.push(...(await write(() => cache.alerts.raiseMarketAlerts(found))));
    await nextTurn();
  }
  await write(() => cache.alerts.forgetEdgesBefore(addDays(earliest, -MARK_DAYS)));
  return stored;
}
