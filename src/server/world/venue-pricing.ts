import type { CityAsset } from '../../contract/assets.js';
import type { Bucket } from '../../domain/buckets.js';
import { localHour } from '../../domain/city-time.js';
import { normalCdf } from '../../domain/normal.js';
import { settlementChance } from '../../domain/settlement.js';
import { round } from '../../domain/units.js';
import { worldMarket } from './cities.js';
import type { ForecastDesk } from './forecast.js';
import { gaussian } from './noise.js';

export type Venue = 'mkta' | 'mktb';

/** A bucket's price on a venue: YES and NO, which add up to a little more than 1 (the venue's overround). */
export interface BucketQuote {
  bucket: Bucket;
  yes: number;
  no: number;
}

/**
 * What sets a venue apart. The crowd reads the desk's published forecast and prices on it with a lean of its own:
 * its centre strays from the desk's by `stray` times the desk's sigma (one lean a day), and each bucket's price wobbles
 * by `wobble` hour to hour. So it is about as good as the desk, a little noisier: a trader following the desk finds
 * small edges of both signs. `halfSpread` is half the overround (yes + no = 1 + 2 * halfSpread).
 */
const VENUES: Record<Venue, { stray: number; wobble: number; halfSpread: number }> = {
  mkta: { stray: 0.08, wobble: 0.02, halfSpread: 0.005 },
  mktb: { stray: 0.1, wobble: 0.025, halfSpread: 0.01 },
};

export interface PricingInputs {
  seed: number;
  desk: ForecastDesk;
}

/**
 * A venue's prices for a day's buckets at an instant, on the market's settlement rule (DESIGN 4, domain/settlement.ts)
 * with the running METAR high. Its belief of the day's high is the desk's published forecast moved by the venue's own
 * lean, as wide as the desk's sigma (which is matched to the desk's real error): a price is about as good a
 * probability as the desk's, and it follows the desk and the METAR readings toward the truth as the day goes on. Then
 * each bucket wobbles a little and the venue takes its overround.
 */
export function venueQuotes(
  { seed, desk }: PricingInputs,
  venue: Venue,
  city: CityAsset,
  date: string,
  buckets: readonly Bucket[],
  ms: number,
): BucketQuote[] {
  const style = VENUES[venue];
  const forecast = desk.primary(city, ms);
  const hour = Math.floor(localHour(ms, city.tz));
  const centreC = forecast.muC + style.stray * forecast.sigmaC * gaussian(seed, 'view', venue, city.city_id, date);
  const spreadC = forecast.sigmaC;
  const market = worldMarket(city);
  return buckets.map((bucket) => {
    const fair = settlementChance(bucket, market, (c) => normalCdf(c, centreC, spreadC), forecast.runningMaxC);
    const noise = gaussian(seed, 'px', venue, city.city_id, date, bucket.slug, hour);
    const mid = fair + style.wobble * Math.sqrt(fair * (1 - fair)) * noise;
    return { bucket, yes: clampPrice(mid + style.halfSpread), no: clampPrice(1 - mid + style.halfSpread) };
  });
}

const clampPrice = (price: number): number => Math.min(0.999, Math.max(0.001, round(price, 3)));
