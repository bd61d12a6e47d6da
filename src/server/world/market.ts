import type { CityAsset } from '../../contract/assets.js';
import { type Bucket, bucketFor, marketBuckets } from '../../domain/buckets.js';
import { localDate, slugDate } from '../../domain/city-time.js';
import { settledValue } from '../../domain/settlement.js';
import { round, toMarketUnit } from '../../domain/units.js';
import { type DayAheadView, listedAt } from './day-ahead.js';
import { DayMemo, stationNumber } from './day-memo.js';
import type { ForecastDesk } from './forecast.js';
import type { Models, Product } from './models.js';
import { daysBefore, SKILL_WINDOW_DAYS } from './skill-window.js';
import { type BucketQuote, type Venue, venueQuotes } from './venue-pricing.js';
import type { Weather } from './weather.js';

export interface MarketEvent {
  city: CityAsset;
  date: string;
  eventSlug: string;
  url: string;
  buckets: Bucket[];
}

export type { BucketQuote, Venue };

const QUOTE_MEMO_SIZE = 500;

/**
 * One daily-high market a city a day, listed from 10:00 local the day before until it settles, and the venues'
 * prices for its buckets: in the evening before, the traders' view of the day ahead; on the day, about as skilled as
 * the forecast desk, drifting with it toward the running METAR high, at times knowing a little more
 * (venue-pricing.ts).
 */
export class Markets {
  /** By date and station. */
  private readonly events = new DayMemo<MarketEvent>();
  private readonly quoteMemo = new Map<string, BucketQuote[]>();

  /** Forgets the days before `date` (world.ts: once its windows no longer reach them). */
  forgetBefore(date: string): void {
    this.events.forgetBefore(date);
  }

  constructor(
    private readonly seed: number,
    private readonly weather: Weather,
    private readonly models: Models,
    private readonly desk: ForecastDesk,
    private readonly dayAhead: DayAheadView,
  ) {}

  event(city: CityAsset, date: string): MarketEvent {
    return this.events.remember(date, stationNumber(city.city_id), () => this.eventOf(city, date));
  }

  /** Whether the market of `date` is listed at an instant: from 10:00 local the day before until its day ends. */
  listed(city: CityAsset, date: string, ms: number): boolean {
    return ms >= listedAt(city, date) && localDate(ms, city.tz) <= date;
  }

  /** The buckets are laid when the market is listed, around the venues' forecast of the day then. */
  private eventOf(city: CityAsset, date: string): MarketEvent {
    const centre = toMarketUnit(this.dayAhead.centreC(city, date, listedAt(city, date)), city.market_unit);
    const eventSlug = `highest-temperature-in-${city.city_id}-on-${slugDate(date)}`;
    return {
      city,
      date,
      eventSlug,
      url: `https://mkta.example/event/${eventSlug}`,
      buckets: marketBuckets(city.market_unit, centre),
    };
  }

  /** The bucket the day settles in: the METAR high, in the market's unit. */
  settledBucket(city: CityAsset, date: string): Bucket {
    return bucketFor(
      this.event(city, date).buckets,
      settledValue(this.weather.metarMaxC(city, date), city.market_unit),
    );
  }

  /**
   * The bucket a forecast (degrees C) points at in that day's market, read from the forecast as it is published (to
   * the hundredth of a degree), so a client rounding the published value finds the same bucket.
   */
  forecastBucket(city: CityAsset, date: string, forecastC: number): Bucket {
    return bucketFor(this.event(city, date).buckets, toMarketUnit(round(forecastC), city.market_unit));
  }

  /** Did the product's day-ahead forecast pick the bucket the day settled in? */
  exactHit(product: Product, city: CityAsset, date: string): boolean {
    const predicted = this.forecastBucket(city, date, this.models.productDayAheadC(product, city, date));
    return predicted.slug === this.settledBucket(city, date).slug;
  }

  /** Share of exact hits over the 30 days before `date`. */
  hitRate(product: Product, city: CityAsset, date: string): number {
    let hits = 0;
    for (const day of daysBefore(date)) if (this.exactHit(product, city, day)) hits++;
    return round(hits / SKILL_WINDOW_DAYS, 4);
  }

  /**
   * A venue's prices of a listed market at an instant (see venue-pricing.ts); the last few instants are kept, as many
   * jobs ask.
   */
  quotes(venue: Venue, city: CityAsset, date: string, ms: number): BucketQuote[] {
    const key = `${venue}|${city.city_id}|${date}|${ms}`;
    const cached = this.quoteMemo.get(key);
    if (cached) return cached;
    const quotes = venueQuotes(
      { seed: this.seed, weather: this.weather, desk: this.desk, dayAhead: this.dayAhead },
      venue,
      city,
      date,
      this.event(city, date).buckets,
      ms,
    );
    if (this.quoteMemo.size >= QUOTE_MEMO_SIZE) this.quoteMemo.clear();
    this.quoteMemo.set(key, quotes);
    return quotes;
  }

  /** One bucket's quote: `.yes` is what a YES costs on the venue, `.no` what a NO costs. */
  quote(venue: Venue, city: CityAsset, date: string, ms: number, slug: string): BucketQuote {
    const found = this.quotes(venue, city, date, ms).find((q) => q.bucket.slug === slug);
    if (!found) throw new Error(`no bucket ${slug} in ${city.city_id} ${date}`);
    return found;
  }
}

/** What the world's own books pay for a side quoted at `price`: a cent more (their slippage), never above 0.999. */
export const askOf = (price: number): number => Math.min(0.999, round(price + 0.01, 3));
