import type { CityAsset } from '../../contract/assets.js';
import type { Bucket } from '../../domain/buckets.js';
import { localDate, localHour } from '../../domain/city-time.js';
import { normalCdf } from '../../domain/normal.js';
import { settlementChance } from '../../domain/settlement.js';
import { worldMarket } from './cities.js';
import type { DayAheadView } from './day-ahead.js';
import type { ForecastDesk, PrimaryForecast } from './forecast.js';
import { gaussian, uniform } from './noise.js';
import { asksAround, spreadOf, type Venue } from './venue-spread.js';
import type { Weather } from './weather.js';

export type { Venue };

/**
 * A bucket's price on a venue: what a YES costs and what a NO costs (each side's ask), which add up to 1 plus the
 * venue's spread on that bucket (venue-spread.ts).
 */
export interface BucketQuote {
  bucket: Bucket;
  yes: number;
  no: number;
}

/**
 * What sets a venue apart besides what it knows (`NOWCAST`): a lean of its own, its centre straying from the desk's by
 * `stray` times the desk's sigma (one lean a day), and each bucket's price wobbling by `wobble` hour to hour. Neither
 * says anything of the weather: a trader following the desk wins where they take the price away from it. Kept small,
 * so that where a venue departs from the desk it is mostly for what it knows. Its spread is its own too
 * (venue-spread.ts).
 */
const VENUES: Record<Venue, { stray: number; wobble: number }> = {
  mkta: { stray: 0.03, wobble: 0.02 },
  mktb: { stray: 0.04, wobble: 0.025 },
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
  dayAhead: DayAheadView;
}

/** What a venue's prices of a day follow at an instant: its belief N(centre, spread) and the running METAR high. */
interface Belief {
  centreC: number;
  spreadC: number;
  runningMaxC: number | null;
  /** Names the bucket's hourly wobble apart from the same hour of the other day it is quoted on. */
  wobbleKey: string;
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
 * A venue's belief of tomorrow's high in the evening before (from its listing at 10:00 local): the traders' own view
 * of the day ahead (day-ahead.ts), wider than the desk's at midnight, with the venue's lean. No reading of tomorrow
 * exists yet and nobody knows more than the models a day out.
 */
function eveningBelief(
  { seed, dayAhead }: PricingInputs,
  venue: Venue,
  city: CityAsset,
  date: string,
  ms: number,
): Belief {
  const { muC, sigmaC } = dayAhead.at(city, date, ms);
  const lean = VENUES[venue].stray * sigmaC * gaussian(seed, 'view-eve', venue, city.city_id, date);
  return { centreC: muC + lean, spreadC: sigmaC, runningMaxC: null, wobbleKey: 'px-eve' };
}

/** The venue's belief of its market day `date` at an instant: the day itself, or the evening before it. */
function beliefOf(inputs: PricingInputs, venue: Venue, city: CityAsset, date: string, ms: number): Belief {
  const today = localDate(ms, city.tz);
  if (date > today) return eveningBelief(inputs, venue, city, date, ms);
  if (date < today) throw new Error(`${city.city_id} ${date} has closed: no venue quotes it at ${ms}`);
  const forecast = inputs.desk.primary(city, ms);
  const { centreC, spreadC } = venueBelief(inputs, venue, city, date, forecast, ms);
  return { centreC, spreadC, runningMaxC: forecast.runningMaxC, wobbleKey: 'px' };
}

/**
 * A venue's prices for a day's buckets at an instant, on the market's settlement rule (DESIGN 4, domain/settlement.ts)
 * with the running METAR high, from its belief (`beliefOf`): in the evening before, its view of the day ahead; on the
 * day, about as skilled as the desk, following it and the METAR readings toward the truth, at times knowing a little
 * more. Then each bucket wobbles a little and the venue quotes both sides around that mid at its own spread.
 */
export function venueQuotes(
  inputs: PricingInputs,
  venue: Venue,
  city: CityAsset,
  date: string,
  buckets: readonly Bucket[],
  ms: number,
): BucketQuote[] {
  const { seed } = inputs;
  const style = VENUES[venue];
  const { centreC, spreadC, runningMaxC, wobbleKey } = beliefOf(inputs, venue, city, date, ms);
  const hour = Math.floor(localHour(ms, city.tz));
  const market = worldMarket(city);
  return buckets.map((bucket) => {
    const fair = settlementChance(bucket, market, (c) => normalCdf(c, centreC, spreadC), runningMaxC);
    const noise = gaussian(seed, wobbleKey, venue, city.city_id, date, bucket.slug, hour);
    const mid = fair + style.wobble * Math.sqrt(fair * (1 - fair)) * noise;
    return { bucket, ...asksAround(mid, spreadOf(seed, venue, city, date, bucket.slug, ms, fair, mid)) };
  });
}
