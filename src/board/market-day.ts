import type { Cache, DayQuote, MetarDay } from '../cache/index.js';
import type { City } from '../contract/cities.js';
import type { SettlementConfig } from '../contract/config.js';
import type { EdgeEnsembleDaily, ModelTmaxRange, SvcProForecast } from '../contract/forecasts.js';
import type { FusionLock } from '../contract/fusion-locks.js';
import { cityMarket } from '../domain/city-market.js';
import { localDate, localDay } from '../domain/city-time.js';
import type { Market } from '../domain/settlement.js';
import { modelKnownUntil } from './same-instant.js';

/**
 * What the cache holds of one city's market day as of an instant: the forecast layers of that date, the METAR
 * readings of its local day up to the instant, each venue's newest snapshot of its buckets and the day's fusion lock.
 * Everything the board, Forecasts, the trader alerts and `export board` work a day out from (board-day.ts).
 */
export interface MarketDay {
  city: City;
  /** The market's unit and settlement rule (config `settlement`). */
  market: Market;
  /** The market's local date. */
  date: string;
  /** The instant the day is read as of: nothing snapshotted, observed, fetched or locked after it is in it. */
  atMs: number;
  /** The forecast layers of this date; null when none was fetched for it by then. */
  primary: SvcProForecast | null;
  ensemble: EdgeEnsembleDaily | null;
  range: ModelTmaxRange | null;
  metar: MetarDay;
  mkta: DayQuote[];
  mktb: DayQuote[];
  lock: FusionLock | null;
  /**
   * Up to when the monitor holds the METAR reports and the desk's forecast (same-instant.ts; null: no bound): a
   * snapshot after it is not compared with the model. As of an instant before it, every row up to the instant is
   * held, and the bound never binds.
   */
  modelKnownUntilMs: number | null;
}

/**
 * The service's current market day for a city at an instant: the date of its newest `svc_pro_forecast` (it follows the
 * service's clock, not this machine's), else the city's own date at the instant.
 */
export function marketDateOf(cache: Cache, city: City, atMs: number): string {
  const primary = cache.market.forecasts(city.city_id, atMs).find((r) => r.layer === 'svc_pro_forecast');
  return primary?.local_date ?? localDate(atMs, city.tz);
}

/**
 * Reads one city's market day as of `atMs` (now, for the live screens), each read a keyset read by index. `date`:
 * the market's local date; without it, the service's current market day, the date of the newest `svc_pro_forecast`
 * (it follows the service's clock, not this machine's), else the city's own date at the instant.
 */
export function readMarketDay(
  cache: Cache,
  city: City,
  atMs: number,
  { date, settlement }: { date?: string; settlement?: SettlementConfig } = {},
): MarketDay {
  const id = city.city_id;
  const layers = cache.market.forecasts(id, atMs);
  const newest = layers.find((r) => r.layer === 'svc_pro_forecast');
  const day = date ?? newest?.local_date ?? localDate(atMs, city.tz);
  // a layer of another day (yesterday's, before the service rolled over) says nothing about this market
  const layer = <T>(name: string) => (layers.find((r) => r.layer === name && r.local_date === day) ?? null) as T | null;
  const span = localDay(day, city.tz);
  return {
    city,
    market: cityMarket(city, settlement),
    date: day,
    atMs,
    primary: layer<SvcProForecast>('svc_pro_forecast'),
    ensemble: layer<EdgeEnsembleDaily>('edge_ensemble_daily'),
    range: layer<ModelTmaxRange>('model_tmax_range'),
    metar: cache.market.metarDay(id, span, atMs),
    mkta: cache.market.newestSnapshot('mkta', id, day, atMs),
    mktb: cache.market.newestSnapshot('mktb', id, day, atMs),
    lock: cache.market.dayLock(id, span, atMs),
    modelKnownUntilMs: modelKnownUntil(cache.streams.states()),
  };
}
