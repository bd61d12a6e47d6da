import type { CityAsset } from '../../contract/assets.js';
import type { Bucket } from '../../domain/buckets.js';
import { localHour } from '../../domain/city-time.js';
import { normalCdf } from '../../domain/normal.js';
import { type HighBelief, roundHalfUp, settlementChance } from '../../domain/settlement.js';
import { round } from '../../domain/units.js';
import { worldMarket } from './cities.js';
import type { ForecastDesk } from './forecast.js';
import { gaussian } from './noise.js';
import type { Weather } from './weather.js';

export type Venue = 'mkta' | 'mktb';

/** A bucket's price on a venue: YES and NO, which add up to a little more than 1 (the venue's overround). */
export interface BucketQuote {
  bucket: Bucket;
  yes: number;
  no: number;
}

/**
 * What sets a venue apart. The crowd reads the desk's published forecast and knows a little more: its belief leans
 * `insight` of the way from the desk's forecast toward what will happen, and strays from it by `stray` times the
 * desk's recent error (one lean a day). That makes it a little sharper than the desk, no more: a trader following the
 * desk finds small edges of both signs. `wobble` moves each bucket's price hour to hour; `halfSpread` is half the
 * overround (yes + no = 1 + 2 * halfSpread).
 */
const VENUES: Record<Venue, { insight: number; stray: number; wobble: number; halfSpread: number }> = {
  mkta: { insight: 0.15, stray: 0.3, wobble: 0.04, halfSpread: 0.005 },
  mktb: { insight: 0.1, stray: 0.35, wobble: 0.05, halfSpread: 0.01 },
};
/**
 * Weather errors have fat tails and books pay for them: a fifth of the doubt sits in a component 2.5 times as wide (at
 * the same total variance), so the favourite is sharp and the far buckets keep a few cents.
 */
const TAIL_SHARE = 0.2;
const TAIL_WIDTH = 2.5;
const CORE_SHARE = 1 / Math.sqrt(1 - TAIL_SHARE + TAIL_SHARE * TAIL_WIDTH ** 2);
/** Below this (degrees C) the venue treats what is still to come as known. */
const MIN_SPREAD_C = 0.1;

export interface PricingInputs {
  seed: number;
  desk: ForecastDesk;
  weather: Weather;
}

/**
 * A venue's prices for a day's buckets at an instant. METAR reports whole degrees C and the day's high only rises, so
 * the market settles on max(running high, the highest temperature still to come, rounded): the venue prices each whole
 * degree of that. Its belief of what is still to come is centred on the desk's forecast of it (less the desk's recent
 * bias at this hour) with the venue's own lean, and is as wide as the desk's recent error at this hour: a price is
 * about as good a probability as the desk's, and it follows the desk and the METAR readings toward the truth as the
 * day goes on. Then each bucket wobbles a little and the venue takes its overround.
 */
export function venueQuotes(
  { seed, desk, weather }: PricingInputs,
  venue: Venue,
  city: CityAsset,
  date: string,
  buckets: readonly Bucket[],
  ms: number,
): BucketQuote[] {
  const style = VENUES[venue];
  const forecast = desk.primary(city, ms);
  const hour = Math.floor(localHour(ms, city.tz));
  const record = desk.record.at(city, date, hour);
  const stillToComeC = weather.sampledHighAfterC(city, date, ms);
  // the day's high is the higher of the running high and what is still to come: no chance below the running high's
  // whole degree, and above it the chance that what is still to come stays under
  const floorC = forecast.runningMaxC === null ? Number.NEGATIVE_INFINITY : roundHalfUp(forecast.runningMaxC) - 0.5;
  let dayHigh: HighBelief;
  if (stillToComeC === null) {
    // the day's last report is in: the running high is the settlement
    dayHigh = (tempC) => (tempC <= floorC ? 0 : 1);
  } else {
    const deskC = forecast.stillToComeC - record.toComeBiasC;
    const strayC = style.stray * record.toComeSdC * gaussian(seed, 'view', venue, city.city_id, date);
    const centreC = deskC + style.insight * (stillToComeC - deskC) + strayC;
    // its error is (1 - insight) of the desk's plus its stray: that is the width it prices with
    const spreadC = Math.max(MIN_SPREAD_C, record.toComeSdC * Math.hypot(1 - style.insight, style.stray));
    const coreC = spreadC * CORE_SHARE;
    dayHigh = (tempC) =>
      tempC <= floorC
        ? 0
        : (1 - TAIL_SHARE) * normalCdf(tempC, centreC, coreC) +
          TAIL_SHARE * normalCdf(tempC, centreC, TAIL_WIDTH * coreC);
  }
  const market = worldMarket(city);
  return buckets.map((bucket) => {
    const fair = settlementChance(bucket, market, dayHigh, forecast.runningMaxC);
    const noise = gaussian(seed, 'px', venue, city.city_id, date, bucket.slug, hour);
    const mid = fair + style.wobble * Math.sqrt(fair * (1 - fair)) * noise;
    return { bucket, yes: clampPrice(mid + style.halfSpread), no: clampPrice(1 - mid + style.halfSpread) };
  });
}

const clampPrice = (price: number): number => Math.min(0.999, Math.max(0.001, round(price, 3)));
