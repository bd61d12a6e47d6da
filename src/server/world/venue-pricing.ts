import type { CityAsset } from '../../contract/assets.js';
import type { Bucket } from '../../domain/buckets.js';
import { localHour } from '../../domain/city-time.js';
import { normalCdf } from '../../domain/normal.js';
import { settlementChance } from '../../domain/settlement.js';
import { round } from '../../domain/units.js';
import { worldMarket } from './cities.js';
import type { ForecastDesk, PrimaryForecast } from './forecast.js';
import { gaussian, uniform } from './noise.js';
import type { Weather } from './weather.js';

export type Venue = 'mkta' | 'mktb';

/** A bucket's price on a venue: YES and NO, which add up to a little more than 1 (the venue's overround). */
export interface BucketQuote {
  bucket: Bucket;
  yes: number;
  no: number;
}

/**
 * What sets a venue apart besides what it knows (`NOWCAST`): a lean of its own, its centre straying from the desk's by
 * `stray` times the desk's sigma (one lean a day), and each bucket's price wobbling by `wobble` hour to hour. Neither
 * says anything of the weather: a trader following the desk wins where they take the price away from it. Kept small,
 * so that where a venue departs from the desk it is mostly for what it knows. `halfSpread` is half the overround
 * (yes + no = 1 + 2 * halfSpread).
 */
const VENUES: Record<Venue, { stray: number; wobble: number; halfSpread: number }> = {
  mkta: { stray: 0.03, wobble: 0.02, halfSpread: 0.005 },
  mktb: { stray: 0.04, wobble: 0.025, halfSpread: 0.01 },
};

/**
 * What a venue knows that the desk does not yet (DESIGN 5): its traders' own nowcast of the afternoon, a reading of a
 * nearby station. Each venue, each day, knows a share of what is left of the desk's uncertainty, drawn between none
 * and `most` (a share of its variance); none before `fromHour` local (the night tells the crowd no more than the
 * desk's readings), growing to the whole day's share by `fullHour`, when the afternoon can be read from the morning.
 * Knowing a share w moves the venue's centre off the desk's by about sqrt(w) sigma: up to 0.14, as far as the lean
 * that was once the venues' only departure (0.08-0.10 sigma), so edges stay a point or two (docs/world.md).
 * `daily`: how much of the noise in what it knows stays all day (the rest is new each hour).
 */
const NOWCAST = { most: 0.02, fromHour: 6, fullHour: 10, daily: 0.8 } as const;

export interface PricingInputs {
  seed: number;
  weather: Weather;
  desk: ForecastDesk;
}

/** The share of the desk's remaining variance a venue knows at a local hour of a day (0..`NOWCAST.most`). */
function knownShare(seed: number, venue: Venue, city: CityAsset, date: string, hour: number): number {
  const ramp = Math.min(1, Math.max(0, (hour - NOWCAST.fromHour) / (NOWCAST.fullHour - NOWCAST.fromHour)));
  return NOWCAST.most * uniform(seed, 'nowcast-share', venue, city.city_id, date) * ramp;
}

/**
 * A venue's belief of the day's high at an instant, N(centre, spread) in degrees C. The desk's forecast is mu with an
 * honest sigma s: what is left of the day's surprise, T - mu (T the high METAR will sample), is about N(0, s^2). A venue
 * that knows a share w of it reads a signal of that surprise with noise of its own, and blends it with the desk as a
 * Bayesian would: its centre moves by w (T - mu) plus s sqrt(w (1 - w)) of noise, and its spread narrows to
 * s sqrt(1 - w). So its prices stay calibrated and are a little sharper than the desk's where it knows more: a trader
 * who bets against its departures from the desk wins back only its lean and wobble (`VENUES`, which know nothing) and
 * pays the spread.
 */
function venueBelief(
  { seed, weather }: PricingInputs,
  venue: Venue,
  city: CityAsset,
  date: string,
  forecast: PrimaryForecast,
  ms: number,
): { centreC: number; spreadC: number } {
  const hour = localHour(ms, city.tz);
  const s = forecast.sigmaC;
  const w = knownShare(seed, venue, city, date, hour);
  const noise =
    NOWCAST.daily * gaussian(seed, 'nowcast', venue, city.city_id, date) +
    Math.sqrt(1 - NOWCAST.daily ** 2) * gaussian(seed, 'nowcast', venue, city.city_id, date, Math.floor(hour));
  // the surprise of the day the forecast is for (a quote's day is the instant's own, as the desk's forecast is)
  const surpriseC = weather.sampledHighC(city, forecast.date) - forecast.muC;
  const lean = VENUES[venue].stray * s * gaussian(seed, 'view', venue, city.city_id, date);
  return {
    centreC: forecast.muC + w * surpriseC + s * Math.sqrt(w * (1 - w)) * noise + lean,
    spreadC: s * Math.sqrt(1 - w),
  };
}

/**
 * A venue's prices for a day's buckets at an instant, on the market's settlement rule (DESIGN 4, domain/settlement.ts)
 * with the running METAR high, from its belief (`venueBelief`): about as skilled as the desk, following it and the
 * METAR readings toward the truth as the day goes on, at times knowing a little more. Then each bucket wobbles a little
 * and the venue takes its overround.
 */
export function venueQuotes(
  inputs: PricingInputs,
  venue: Venue,
  city: CityAsset,
  date: string,
  buckets: readonly Bucket[],
  ms: number,
): BucketQuote[] {
  const { seed, desk } = inputs;
  const style = VENUES[venue];
  const forecast = desk.primary(city, ms);
  const { centreC, spreadC } = venueBelief(inputs, venue, city, date, forecast, ms);
  const hour = Math.floor(localHour(ms, city.tz));
  const market = worldMarket(city);
  return buckets.map((bucket) => {
    const fair = settlementChance(bucket, market, (c) => normalCdf(c, centreC, spreadC), forecast.runningMaxC);
    const noise = gaussian(seed, 'px', venue, city.city_id, date, bucket.slug, hour);
    const mid = fair + style.wobble * Math.sqrt(fair * (1 - fair)) * noise;
    return { bucket, yes: clampPrice(mid + style.halfSpread), no: clampPrice(1 - mid + style.halfSpread) };
  });
}

const clampPrice = (price: number): number => Math.min(0.999, Math.max(0.001, round(price, 3)));
