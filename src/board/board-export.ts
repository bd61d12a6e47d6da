import type { Cache, DayQuote, Venue } from '../cache/index.js';
import type { MarketUnit } from '../contract/common.js';
import type { SettlementConfig } from '../contract/config.js';
import { OPEN_HIGH, OPEN_LOW } from '../domain/buckets.js';
import { localDate } from '../domain/city-time.js';
import type { DayPhase } from '../domain/day-phase.js';
import { highForecastOf } from '../domain/desk-forecast.js';
import { boardDay } from './board-day.js';
import { type MarketDay, readMarketDay } from './market-day.js';
import type { PricedBucket } from './priced-day.js';

/** A venue's newest quote of a bucket, as `export board` writes it. */
export interface BoardQuote {
  yes_price: number | null;
  no_price: number | null;
  snapshot_at: string | null;
}

/** One bucket of `export board` (DESIGN 3): `low`/`high` whole degrees of the market's unit, null at an open end. */
export interface BoardBucket {
  bucket_slug: string | null;
  bucket_label: string | null;
  low: number | null;
  high: number | null;
  p: number | null;
  dead: boolean;
  mkta: BoardQuote | null;
  mktb: BoardQuote | null;
}

/** The board's best effective edge of a city-day. */
export interface BoardEdge {
  venue: Venue;
  bucket_slug: string | null;
  side: 'YES' | 'NO';
  price: number;
  edge: number;
}

/** One city of `export board`, exactly DESIGN 3's fields. */
export interface BoardCity {
  city_id: string;
  local_date: string;
  local_time: string;
  phase: DayPhase;
  unit: MarketUnit;
  mu_c: number | null;
  sigma_c: number | null;
  running_high_c: number | null;
  buckets: BoardBucket[];
  best_edge: BoardEdge | null;
}

const quoteOf = (q: DayQuote | null): BoardQuote | null =>
  q && { yes_price: q.yes_price, no_price: q.no_price, snapshot_at: q.snapshot_at };

function bucketOf(r: PricedBucket): BoardBucket {
  const b = r.bucket;
  return {
    bucket_slug: r.slug,
    bucket_label: r.label,
    low: b === null || b.low === OPEN_LOW ? null : b.low,
    high: b === null || b.high === OPEN_HIGH ? null : b.high,
    p: r.p,
    dead: r.dead,
    mkta: quoteOf(r.mkta),
    mktb: quoteOf(r.mktb),
  };
}

/**
 * One city of `export board` from its market day (board-day.ts): the buckets the venues list, each with its p and
 * both venues' newest prices, and the best edge. `mu_c`/`sigma_c` are the desk's aliases as cached (null when not a
 * number); `p` and `edge` are null where the forecast is unusable (missing, zero, negative or infinite sigma), `p`
 * also where a label cannot be read; never NaN. A CHECK day (the running high far outside the forecast) has no best
 * edge.
 */
export function boardCityOf(market: MarketDay): BoardCity {
  const day = boardDay(market);
  const desk = highForecastOf(market.primary);
  const best = day.best;
  return {
    city_id: day.cityId,
    local_date: day.date,
    local_time: day.localTime,
    phase: day.phase,
    unit: day.unit,
    mu_c: desk?.muC ?? null,
    sigma_c: desk?.sigmaC ?? null,
    running_high_c: day.runningHighC,
    buckets: day.buckets.filter((r) => r.listed).map(bucketOf),
    best_edge: best && {
      venue: best.venue,
      bucket_slug: best.bucket.slug,
      side: best.side,
      price: best.price,
      edge: best.edge,
    },
  };
}

/** `svc-monitor export board`: every cached city's market day, on its own local date, as of `atMs`. */
export function exportBoard(
  cache: Cache,
  atMs: number,
  { cityId, settlement }: { cityId?: string; settlement?: SettlementConfig } = {},
): BoardCity[] {
  return cache.resources
    .cities()
    .filter((c) => cityId === undefined || c.city_id === cityId)
    .map((city) => boardCityOf(readMarketDay(cache, city, atMs, { date: localDate(atMs, city.tz), settlement })));
}

/**
 * The CSV form: one record a bucket, the city's fields repeated and the nested ones flattened (`mkta_yes_price`,
 * `best_edge_venue`, ...); a city with no listed bucket still has one record, its bucket fields empty.
 */
export function boardCsvRecords(cities: readonly BoardCity[]): Record<string, unknown>[] {
  const flat = (prefix: string, value: object | null, keys: readonly string[]) =>
    Object.fromEntries(
      keys.map((k) => [`${prefix}_${k}`, value === null ? null : (value as Record<string, unknown>)[k]]),
    );
  const QUOTE = ['yes_price', 'no_price', 'snapshot_at'] as const;
  const EDGE = ['venue', 'bucket_slug', 'side', 'price', 'edge'] as const;
  const BUCKET = ['bucket_slug', 'bucket_label', 'low', 'high', 'p', 'dead'] as const;
  return cities.flatMap(({ buckets, best_edge, ...city }) => {
    const edge = flat('best_edge', best_edge, EDGE);
    if (buckets.length === 0)
      return [
        {
          ...city,
          ...Object.fromEntries(BUCKET.map((k) => [k, null])),
          ...flat('mkta', null, QUOTE),
          ...flat('mktb', null, QUOTE),
          ...edge,
        },
      ];
    return buckets.map(({ mkta, mktb, ...bucket }) => ({
      ...city,
      ...bucket,
      ...flat('mkta', mkta, QUOTE),
      ...flat('mktb', mktb, QUOTE),
      ...edge,
    }));
  });
}
