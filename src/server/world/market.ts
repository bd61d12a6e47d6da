import type { CityAsset } from '../../contract/assets.js';
import { type Bucket, bucketFor, bucketProbability, marketBuckets, settledValue } from '../../domain/buckets.js';
import { addDays, instantAtLocal, slugDate } from '../../domain/city-time.js';
import { deltaToMarketUnit, round, toMarketUnit } from '../../domain/units.js';
import { type Models, type Product, SKILL_WINDOW_DAYS } from './models.js';
import { gaussian, uniform } from './noise.js';
import type { Weather } from './weather.js';

export type Venue = 'mkta' | 'mktb';

export interface MarketEvent {
  city: CityAsset;
  date: string;
  eventSlug: string;
  url: string;
  buckets: Bucket[];
}

export interface BucketQuote {
  bucket: Bucket;
  yes: number;
}

/** One daily-high market a city a day, and the venues' prices for its buckets, drifting toward the truth. */
export class Markets {
  private readonly events = new Map<string, MarketEvent>();

  constructor(
    private readonly seed: number,
    private readonly weather: Weather,
    private readonly models: Models,
  ) {}

  event(city: CityAsset, date: string): MarketEvent {
    const key = `${city.city_id}|${date}`;
    const cached = this.events.get(key);
    if (cached) return cached;
    const centre = toMarketUnit(this.models.productDayAheadC('svc_pro', city, date), city.market_unit);
    const eventSlug = `highest-temperature-in-${city.city_id}-on-${slugDate(date)}`;
    const event: MarketEvent = {
      city,
      date,
      eventSlug,
      url: `https://mkta.example/event/${eventSlug}`,
      buckets: marketBuckets(city.market_unit, centre),
    };
    this.events.set(key, event);
    return event;
  }

  /** The bucket the day settles in: the METAR high, in the market's unit. */
  settledBucket(city: CityAsset, date: string): Bucket {
    return bucketFor(
      this.event(city, date).buckets,
      settledValue(this.weather.metarMaxC(city, date), city.market_unit),
    );
  }

  /** The bucket a forecast (degrees C) points at in that day's market. */
  forecastBucket(city: CityAsset, date: string, forecastC: number): Bucket {
    return bucketFor(this.event(city, date).buckets, toMarketUnit(forecastC, city.market_unit));
  }

  /** Did the product's day-ahead forecast pick the bucket the day settled in? */
  exactHit(product: Product, city: CityAsset, date: string): boolean {
    const predicted = this.forecastBucket(city, date, this.models.productDayAheadC(product, city, date));
    return predicted.slug === this.settledBucket(city, date).slug;
  }

  /** Share of exact hits over the 30 days before `date`. */
  hitRate(product: Product, city: CityAsset, date: string): number {
    let hits = 0;
    for (let i = 1; i <= SKILL_WINDOW_DAYS; i++) if (this.exactHit(product, city, addDays(date, -i))) hits++;
    return round(hits / SKILL_WINDOW_DAYS, 4);
  }

  /**
   * YES prices at an instant. The venue's belief starts at the day-ahead forecast (with the venue's own bias) and
   * moves to the METAR high as the local day goes on; prices are steady within an hour.
   */
  quotes(venue: Venue, city: CityAsset, date: string, ms: number): BucketQuote[] {
    const event = this.event(city, date);
    const hoursIntoDay = (ms - instantAtLocal(date, 0, 0, city.tz)) / 3_600_000;
    const w = Math.min(0.97, Math.max(0, (hoursIntoDay - 4) / 12));
    const believedC =
      (1 - w) *
        (this.models.productDayAheadC('svc_pro', city, date) + 0.7 * gaussian(this.seed, venue, city.city_id, date)) +
      w * this.weather.metarMaxC(city, date);
    const mu = toMarketUnit(believedC, city.market_unit);
    // a calm day is calm for the venue too: it shares the forecast desk's confidence of the day
    const sigma = deltaToMarketUnit(
      Math.max(0.35, 1.9 * (1 - w) * dayConfidence(this.seed, city, date)),
      city.market_unit,
    );
    const hour = Math.floor(ms / 3_600_000);
    return event.buckets.map((bucket) => {
      const noise = 0.025 * gaussian(this.seed, 'px', venue, city.city_id, date, bucket.slug, hour);
      const yes = Math.min(0.999, Math.max(0.001, round(bucketProbability(bucket, mu, sigma) + noise, 3)));
      return { bucket, yes };
    });
  }

  quote(venue: Venue, city: CityAsset, date: string, ms: number, slug: string): number {
    const found = this.quotes(venue, city, date, ms).find((q) => q.bucket.slug === slug);
    if (!found) throw new Error(`no bucket ${slug} in ${city.city_id} ${date}`);
    return found.yes;
  }
}

/** How forecastable a city's day is (0.6 calm .. 1.4 volatile); scales both the desk's and the venues' sigma. */
export const dayConfidence = (seed: number, city: CityAsset, date: string): number =>
  0.6 + 0.8 * uniform(seed, 'conf', city.city_id, date);

/** Asks are a cent above the mid, never above 0.999. */
export const askOf = (price: number): number => Math.min(0.999, round(price + 0.01, 3));
