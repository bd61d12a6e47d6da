import {
  type Cache,
  type CacheTopic,
  type DayAheadForecast,
  type DayQuote,
  MARKET_READ_TOPICS,
  type MetarDay,
} from '../cache/index.js';
import type { City } from '../contract/cities.js';
import type { SettlementConfig } from '../contract/config.js';
import type { EdgeEnsembleDaily, ModelTmaxRange, SvcProForecast } from '../contract/forecasts.js';
import type { FusionLock } from '../contract/fusion-locks.js';
import { type HighAgainstModels, highSetters } from '../domain/breakthrough.js';
import { cityMarket } from '../domain/city-market.js';
import { localDate, localDay } from '../domain/city-time.js';
import { modelRangeOf } from '../domain/model-range.js';
import type { Market } from '../domain/settlement.js';
import { type ComparableQuotes, comparableQuotes, modelKnownUntil } from './same-instant.js';
import { type VenuesHeldUntil, venuesHeldUntil } from './venue-crosses.js';

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
  /**
   * The models' Tmax of the day: the polled `model_tmax_range` of this date, else the one worked out from each model's
   * forecast of the day in `model_forecasts_daily` (`dayAhead`; domain/model-range.ts), as in a replay of a backfilled
   * cache, whose polls are all of later days. `rangeFrom` says which; null: neither is cached.
   */
  range: ModelTmaxRange | null;
  rangeFrom: 'model_tmax_range' | 'model_forecasts_daily' | null;
  /**
   * Each product's forecast of the day from `model_forecasts_daily` (its models and blends), read only when a polled
   * layer of the day (the ensemble or the models' range) is missing, and only once the day has begun; else empty.
   */
  dayAhead: DayAheadForecast[];
  metar: MetarDay;
  /**
   * Each reading of `metar` that raised the running high, with the warmest model of the day's newest
   * `model_tmax_range` published at or before it: what BREAKTHROUGH is judged on (domain/breakthrough.ts).
   */
  highs: HighAgainstModels[];
  mkta: DayQuote[];
  mktb: DayQuote[];
  lock: FusionLock | null;
  /**
   * Up to when the monitor holds the METAR reports and the desk's forecast (same-instant.ts; null: no bound): a
   * snapshot after it is not compared with the model. As of an instant before it, every row up to the instant is
   * held, and the bound never binds.
   */
  modelKnownUntilMs: number | null;
  /**
   * While a venue's newest snapshot is ahead of the model: its newest snapshot at or before `modelKnownUntilMs`, the
   * board's last comparable edge (same-instant.ts `comparableQuotes`). Null or left out: no venue is ahead.
   */
  comparable?: ComparableQuotes | null;
  /** Up to when the monitor holds each venue's stream, as of `atMs` (venue-crosses.ts); left out: no bound. */
  venueHeldUntilMs?: VenuesHeldUntil | null;
}

/**
 * The service's current market day for a city at an instant: the date of its newest `svc_pro_forecast` (it follows the
 * service's clock, not this machine's: a day the service has not rolled over to yet stays the market day past this
 * machine's midnight), but never later than the city's own date at the instant: once a day has passed its peak the
 * service forecasts the next one (from about 17:00 local), and that day is tomorrow's row, not today's. With no
 * forecast, the city's own date. `atMs`: the monitor's now, the service's clock.
 */
export function marketDateOf(cache: Cache, city: City, atMs: number): string {
  const primary = cache.market.forecasts(city.city_id, atMs).find((r) => r.layer === 'svc_pro_forecast');
  return earlierDate(primary?.local_date, localDate(atMs, city.tz));
}

/** The earlier of the newest forecast's date and the city's own date (ISO dates compare as strings). */
const earlierDate = (forecastDate: string | undefined, ownDate: string): string =>
  forecastDate !== undefined && forecastDate < ownDate ? forecastDate : ownDate;

/**
 * The tables `readMarketDay` reads, from its reads' own lists (cache/market/market.ts), and the sync's stream states
 * (`modelKnownUntil`): what a pane of market days watches.
 */
export const MARKET_DAY_TOPICS: readonly CacheTopic[] = [
  ...new Set<CacheTopic>([
    ...MARKET_READ_TOPICS.forecasts,
    ...MARKET_READ_TOPICS.forecastsOfDate,
    ...MARKET_READ_TOPICS.dayAhead,
    ...MARKET_READ_TOPICS.metarDay,
    ...MARKET_READ_TOPICS.warmestModel,
    ...MARKET_READ_TOPICS.newestSnapshot,
    ...MARKET_READ_TOPICS.dayLock,
    'streams',
  ]),
];

/**
 * Reads one city's market day as of `atMs` (now, for the live screens), each read a keyset read by index. `date`:
 * the market's local date; without it, the service's current market day (`marketDateOf`).
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
  const day = date ?? earlierDate(newest?.local_date, localDate(atMs, city.tz));
  // a layer's newest row of another day (yesterday's, before the service rolled over; tomorrow's, once it forecasts
  // the next market) says nothing about this market: this day's own newest poll does (read only when needed)
  let ofDate: readonly { layer: string }[] | undefined;
  const ofDay = () => {
    ofDate ??= cache.market.forecastsOfDate(id, day, atMs);
    return ofDate;
  };
  const layer = <T>(name: string) =>
    (layers.find((r) => r.layer === name && r.local_date === day) ??
      ofDay().find((r) => r.layer === name) ??
      null) as T | null;
  const span = localDay(day, city.tz);
  const ensemble = layer<EdgeEnsembleDaily>('edge_ensemble_daily');
  const polledRange = layer<ModelTmaxRange>('model_tmax_range');
  // the live day has both layers polled: the daily table is read only for what they leave out
  const dayAhead = ensemble && polledRange ? [] : cache.market.dayAhead(id, span, atMs);
  const range = polledRange ?? modelRangeOf(dayAhead, { city_id: id, local_date: day, station_code: city.icao });
  const metar = cache.market.metarDay(id, span, atMs);
  const mkta = cache.market.newestSnapshot('mkta', id, day, atMs);
  const mktb = cache.market.newestSnapshot('mktb', id, day, atMs);
  const states = cache.streams.states();
  const modelKnownUntilMs = modelKnownUntil(states);
  return {
    city,
    market: cityMarket(city, settlement),
    date: day,
    atMs,
    primary: layer<SvcProForecast>('svc_pro_forecast'),
    ensemble,
    range,
    rangeFrom: polledRange ? 'model_tmax_range' : range ? 'model_forecasts_daily' : null,
    dayAhead,
    metar,
    highs: highSetters(metar.points).map((h) => ({ ...h, warmest: cache.market.warmestModel(id, span, h.ms) })),
    mkta,
    mktb,
    lock: cache.market.dayLock(id, span, atMs),
    modelKnownUntilMs,
    comparable: comparableQuotes(cache, { cityId: id, date: day, atMs, modelKnownUntilMs }, { mkta, mktb }),
    venueHeldUntilMs: venuesHeldUntil(states, atMs),
  };
}
