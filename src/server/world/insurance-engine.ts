import type { CityAsset } from '../../contract/assets.js';
import type { InsuranceEvent, InsuranceLeg } from '../../contract/events.js';
import { type Bucket, bucketFor } from '../../domain/buckets.js';
import { isoUtc, localDate, localHour } from '../../domain/city-time.js';
import { bucketIsDead, bucketProbability, settledValue } from '../../domain/settlement.js';
import { round, toMarketUnit } from '../../domain/units.js';
import { insurancePicks, type StoredPick } from '../store/insurance-picks.js';
import { worldMarket } from './cities.js';
import type { WorldContext } from './context.js';
import type { PrimaryForecast } from './forecast.js';
import type { MarketEvent } from './market.js';
import { derivedUuid, hash32 } from './noise.js';

const STAKE = 5;
const SLIPPAGE_BPS = 200;
/**
 * The engine's two books, each opening one primary pick a city a day: `overnight` as the day's market opens (00:00),
 * on the day-ahead forecast, and `morning` at 09:00 on the forecast the morning's readings have sharpened. Each hedges
 * through its `hedgeUntilHour` (its last check is in that local hour); after that what the afternoon brings is the
 * pick's own risk.
 */
export const INSURANCE_BOOKS = [
  { book: 'overnight', hour: 0, minute: 0, hedgeUntilHour: 6 },
  { book: 'morning', hour: 9, minute: 0, hedgeUntilHour: 13 },
] as const;
type Book = (typeof INSURANCE_BOOKS)[number];
/** After the peak, legs the forecast gives less than this together are given up as lost. */
const GIVE_UP_BELOW = 0.02;

/** A primary pick and everything that happened to it since; one row of `insurance_picks`. */
export interface InsurancePick extends StoredPick {
  book: Book['book'];
  event_slug: string;
  /** Legs A and B exactly as `insurance.pick.created` sent them: a kill echoes them unchanged. */
  legs: InsuranceLeg[];
  addon: { pick_id: string; leg: InsuranceLeg } | null;
  /** The last trade_seq used by the pick or its addon. */
  seq: number;
  closed: 'killed' | 'day_ended' | null;
}

/**
 * The insurance engine. At each book's hour (`INSURANCE_BOOKS`) it opens a primary pick: YES on the bucket holding
 * the primary forecast (leg A) and on its neighbour on the forecast's side (leg B). Hourly through the book's hedging
 * hour it hedges once with leg C if the forecast has left both buckets. Hourly all day it kills the pick once every
 * leg it holds is lost: the running METAR high has passed them (DESIGN 4's settlement rule), or the day has peaked
 * below them and the desk gives them less than `GIVE_UP_BELOW`. A pick that outlives its day is closed without an
 * event.
 */
export function openInsurancePick(ctx: WorldContext, city: CityAsset, ms: number): void {
  const forecast = ctx.desk.primary(city, ms);
  const { book } = bookOpeningAt(localHour(ms, city.tz));
  const pickId = derivedUuid(ctx.seed, 'insurance', city.city_id, forecast.date, book, 'primary');
  const picks = insurancePicks<InsurancePick>(ctx.store.db);
  if (picks.get(pickId)) return; // already opened: a job never runs twice, but a replay must not fork the pick
  const event = ctx.markets.event(city, forecast.date);
  const home = bucketFor(event.buckets, muOf(city, forecast));
  const pick: InsurancePick = {
    pick_id: pickId,
    city_id: city.city_id,
    local_date: forecast.date,
    open: true,
    book,
    event_slug: event.eventSlug,
    legs: [
      leg(ctx, city, event, home, 'A', ms),
      leg(ctx, city, event, neighbour(event.buckets, home, muOf(city, forecast)), 'B', ms),
    ],
    addon: null,
    seq: 1,
    closed: null,
  };
  picks.put(pick);
  emit(ctx, city, pick, 'insurance.pick.created', pick.legs, null, ms);
}

/** The hourly check of every open pick of the city: close stale ones, kill lost ones, hedge moved ones. */
export function insuranceCheck(ctx: WorldContext, city: CityAsset, ms: number): void {
  const picks = insurancePicks<InsurancePick>(ctx.store.db);
  const open = picks.openByCity(city.city_id);
  if (open.length === 0) return;
  const today = localDate(ms, city.tz);
  const hour = localHour(ms, city.tz);
  for (const pick of open) {
    if (pick.local_date !== today) {
      // its market has closed without its legs ever being lost for sure: nothing to tell anyone
      picks.put({ ...pick, open: false, closed: 'day_ended' });
      continue;
    }
    if (killIfLost(ctx, city, pick, ms)) continue;
    if (Math.floor(hour) <= hedgeUntil(pick) && !pick.addon) hedge(ctx, city, pick, ctx.desk.primary(city, ms), ms);
  }
}

/**
 * Every leg held (A, B and C if any) is lost once the running METAR high, which only rises, has left each of them
 * below it (DESIGN 4: no whole degree they settle on is still reachable), or once the day has peaked (an hour after
 * the peak hour) and the desk, conditioned on the running high, gives them together less than `GIVE_UP_BELOW`: the
 * receiver should get out at market. The kill is told under the primary pick, echoing its original legs. It is
 * checked before the hedge: a pick already lost is exited, not chased with a new leg.
 */
function killIfLost(ctx: WorldContext, city: CityAsset, pick: InsurancePick, ms: number): boolean {
  const highC = ctx.weather.runningMaxC(city, pick.local_date, ms);
  if (highC === null) return false;
  const market = worldMarket(city);
  const held = pick.addon ? [...pick.legs, pick.addon.leg] : pick.legs;
  const unit = city.market_unit;
  const high = settledValue(highC, unit);
  const highText = `METAR high so far ${high}°${unit}${unit === 'F' ? ` (${highC}°C)` : ''}`;
  let reason: string;
  if (held.every((l) => bucketIsDead(bucketOf(l), market, highC))) {
    const top = held.reduce((a, b) => (b.bucket_high > a.bucket_high ? b : a));
    reason =
      `${highText} is above ${top.bucket_high}°${unit}, ` +
      `the top of the highest leg ${top.leg} (${top.bucket_label})`;
  } else {
    if (localHour(ms, city.tz) < city.climate.peak_hour + 1) return false;
    const forecast = ctx.desk.primary(city, ms);
    const chance = held.reduce(
      (sum, l) => sum + (bucketProbability(bucketOf(l), market, forecast, forecast.runningMaxC) ?? 0),
      0,
    );
    if (chance >= GIVE_UP_BELOW) return false;
    const bottom = held.reduce((a, b) => (b.bucket_low < a.bucket_low ? b : a));
    reason =
      `the day has peaked: ${highText} is below ${bottom.bucket_low}°${unit}, the bottom of the lowest leg ` +
      `${bottom.leg} (${bottom.bucket_label}), and the forecast gives the legs ${round(chance * 100, 1)}%`;
  }
  const next: InsurancePick = { ...pick, open: false, closed: 'killed', seq: pick.seq + 1 };
  insurancePicks<InsurancePick>(ctx.store.db).put(next);
  emit(
    ctx,
    city,
    next,
    'insurance.pick.killed',
    pick.legs,
    { sell_at_market: true, reason: `${reason}: every leg loses, sell at market` },
    ms,
  );
  return true;
}

/** Leg C on the forecast's bucket, once, when the forecast no longer settles in any bucket the pick holds. */
function hedge(ctx: WorldContext, city: CityAsset, pick: InsurancePick, forecast: PrimaryForecast, ms: number): void {
  const event = ctx.markets.event(city, pick.local_date);
  const bucket = bucketFor(event.buckets, muOf(city, forecast));
  if (pick.legs.some((l) => l.bucket_slug === bucket.slug)) return;
  const addon = {
    pick_id: derivedUuid(ctx.seed, 'insurance', city.city_id, pick.local_date, pick.book, 'addon'),
    leg: leg(ctx, city, event, bucket, 'C', ms),
  };
  const next: InsurancePick = { ...pick, addon, seq: pick.seq + 1 };
  insurancePicks<InsurancePick>(ctx.store.db).put(next);
  emit(ctx, city, next, 'insurance.addon.created', [addon.leg], null, ms);
}

/** The book that opens its picks at a local hour (the job runs at each book's hour only). */
function bookOpeningAt(hour: number): Book {
  const book = INSURANCE_BOOKS.find((b) => b.hour === Math.floor(hour));
  if (!book) throw new Error(`no insurance book opens at ${hour} local`);
  return book;
}

const hedgeUntil = (pick: InsurancePick): number =>
  (INSURANCE_BOOKS.find((b) => b.book === pick.book) as Book).hedgeUntilHour;

/** A leg's bucket, as the settlement rule reads it. */
const bucketOf = (leg: InsuranceLeg): Bucket => ({
  slug: leg.bucket_slug,
  label: leg.bucket_label,
  low: leg.bucket_low,
  high: leg.bucket_high,
});

/** The forecast in the market's unit: what decides which bucket it sits in. */
const muOf = (city: CityAsset, forecast: PrimaryForecast): number => toMarketUnit(forecast.muC, city.market_unit);

/**
 * Leg B's bucket: the neighbour on the side of the home bucket the forecast leans to (upper half: the next higher),
 * or the one inner neighbour of a tail. A bucket [low, high] holds the values that round into it, so its middle is
 * (low + high) / 2.
 */
function neighbour(buckets: readonly Bucket[], home: Bucket, mu: number): Bucket {
  const i = buckets.indexOf(home);
  if (i === 0) return buckets[1] as Bucket;
  if (i === buckets.length - 1) return buckets[i - 1] as Bucket;
  return buckets[mu >= (home.low + home.high) / 2 ? i + 1 : i - 1] as Bucket;
}

function leg(
  ctx: WorldContext,
  city: CityAsset,
  event: MarketEvent,
  bucket: Bucket,
  name: InsuranceLeg['leg'],
  ms: number,
): InsuranceLeg {
  const price = ctx.markets.quote('mkta', city, event.date, ms, bucket.slug).yes;
  return {
    leg: name,
    bucket_slug: bucket.slug,
    bucket_label: bucket.label,
    bucket_low: bucket.low,
    bucket_high: bucket.high,
    token_id_yes: tokenId(ctx.seed, event.eventSlug, bucket.slug),
    snapshot_price: price,
    stake_usd: STAKE,
    // four decimals keep shares × price within a hundredth of a cent of the stake even at 0.001
    shares: round(STAKE / price, 4),
    max_slippage_bps: SLIPPAGE_BPS,
    side: 'YES',
  };
}

/** A venue-style YES token id (a long decimal number), fixed per market bucket as the venue's would be. */
function tokenId(seed: number, eventSlug: string, bucketSlug: string): string {
  const digits = [0, 1, 2, 3, 4, 5, 6].map((i) =>
    String(hash32(seed, ['token', eventSlug, bucketSlug, i])).padStart(10, '0'),
  );
  return `${1 + (hash32(seed, ['token', eventSlug, bucketSlug]) % 9)}${digits.join('')}`;
}

/**
 * Writes one event of the pick's family at its current `seq`. An addon is its own pick under the primary; a
 * creation and a kill speak for the primary pick itself.
 */
function emit(
  ctx: WorldContext,
  city: CityAsset,
  pick: InsurancePick,
  eventType: InsuranceEvent['event_type'],
  legs: InsuranceLeg[],
  kill: InsuranceEvent['kill'],
  ms: number,
): void {
  const event = ctx.markets.event(city, pick.local_date);
  const addon = eventType === 'insurance.addon.created' ? pick.addon : null;
  const payload: InsuranceEvent = {
    event_id: derivedUuid(ctx.seed, 'insurance-event', pick.pick_id, pick.seq),
    event_type: eventType,
    event_version: 1,
    created_at: isoUtc(ms),
    attempt: 1,
    market: {
      city: city.city_id,
      market_date: pick.local_date,
      market_tz: city.tz,
      bucket_unit: city.market_unit,
      event_slug: event.eventSlug,
      mkta_url: event.url,
    },
    trade: {
      pick_id: addon ? addon.pick_id : pick.pick_id,
      trade_seq: pick.seq,
      trade_kind: addon ? 'addon' : 'primary',
      parent_pick_id: addon ? pick.pick_id : null,
      total_cost_usd: round(
        legs.reduce((sum, l) => sum + l.stake_usd, 0),
        2,
      ),
    },
    legs,
    kill,
  };
  ctx.store.addWorldEvent(payload.event_id, eventType, payload.created_at, payload);
}
