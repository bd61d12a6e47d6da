import type { CityAsset } from '../../contract/assets.js';
import type { InsuranceEvent, InsuranceLeg } from '../../contract/events.js';
import { type Bucket, bucketFor } from '../../domain/buckets.js';
import { isoUtc, localDate, localHour } from '../../domain/city-time.js';
import { settledValue } from '../../domain/settlement.js';
import { round, toMarketUnit } from '../../domain/units.js';
import { insurancePicks, type StoredPick } from '../store/insurance-picks.js';
import type { WorldContext } from './context.js';
import type { PrimaryForecast } from './forecast.js';
import type { MarketEvent } from './market.js';
import { derivedUuid, hash32 } from './noise.js';

const STAKE = 5;
const SLIPPAGE_BPS = 200;

/** A primary pick and everything that happened to it since; one row of `insurance_picks`. */
export interface InsurancePick extends StoredPick {
  event_slug: string;
  /** Legs A and B exactly as `insurance.pick.created` sent them: a kill echoes them unchanged. */
  legs: InsuranceLeg[];
  addon: { pick_id: string; leg: InsuranceLeg } | null;
  /** The last trade_seq used by the pick or its addon. */
  seq: number;
  closed: 'killed' | 'day_ended' | null;
}

/**
 * The insurance engine. At 09:00 local it opens a primary pick: YES on the bucket holding the primary forecast (leg
 * A) and on its neighbour on the forecast's side (leg B). Hourly until the peak hour it hedges once with leg C if the
 * forecast has left both buckets; hourly all day it kills the pick once the running METAR high, which only rises,
 * is above every leg the pick holds. A pick that outlives its day is closed without an event.
 */
export function openInsurancePick(ctx: WorldContext, city: CityAsset, ms: number): void {
  const forecast = ctx.desk.primary(city, ms);
  const pickId = derivedUuid(ctx.seed, 'insurance', city.city_id, forecast.date, 'primary');
  const picks = insurancePicks<InsurancePick>(ctx.store.db);
  if (picks.get(pickId)) return; // already opened: a job never runs twice, but a replay must not fork the pick
  const event = ctx.markets.event(city, forecast.date);
  const home = bucketFor(event.buckets, muOf(city, forecast));
  const pick: InsurancePick = {
    pick_id: pickId,
    city_id: city.city_id,
    local_date: forecast.date,
    open: true,
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
  const hedging = Math.floor(localHour(ms, city.tz)) <= city.climate.peak_hour;
  for (const pick of open) {
    if (pick.local_date !== today) {
      // its market has closed without the high ever passing the legs: nothing to tell anyone
      picks.put({ ...pick, open: false, closed: 'day_ended' });
      continue;
    }
    if (killIfLost(ctx, city, pick, ms)) continue;
    // the full forecast is the costly part of the check: only worth it while the pick may still hedge
    if (hedging && !pick.addon) hedge(ctx, city, pick, ctx.desk.primary(city, ms), ms);
  }
}

/**
 * The METAR high only rises, so once it settles above the top of every leg held (A, B and C if any) no leg can
 * win: the receiver should get out at market. The kill is told under the primary pick, echoing its original legs.
 * It is checked before the hedge: a pick the high has already beaten is exited, not chased with a new leg.
 */
function killIfLost(ctx: WorldContext, city: CityAsset, pick: InsurancePick, ms: number): boolean {
  const highC = ctx.weather.runningMaxC(city, pick.local_date, ms);
  if (highC === null) return false;
  const high = settledValue(highC, city.market_unit);
  const held = pick.addon ? [...pick.legs, pick.addon.leg] : pick.legs;
  const top = held.reduce((a, b) => (b.bucket_high > a.bucket_high ? b : a));
  if (high <= top.bucket_high) return false;
  const next: InsurancePick = { ...pick, open: false, closed: 'killed', seq: pick.seq + 1 };
  insurancePicks<InsurancePick>(ctx.store.db).put(next);
  const unit = city.market_unit;
  const reason =
    `METAR high so far ${high}°${unit}${unit === 'F' ? ` (${highC}°C)` : ''} is above ${top.bucket_high}°${unit}, ` +
    `the top of the highest leg ${top.leg} (${top.bucket_label}): every leg loses, sell at market`;
  emit(ctx, city, next, 'insurance.pick.killed', pick.legs, { sell_at_market: true, reason }, ms);
  return true;
}

/** Leg C on the forecast's bucket, once, when the forecast no longer settles in any bucket the pick holds. */
function hedge(ctx: WorldContext, city: CityAsset, pick: InsurancePick, forecast: PrimaryForecast, ms: number): void {
  const event = ctx.markets.event(city, pick.local_date);
  const bucket = bucketFor(event.buckets, muOf(city, forecast));
  if (pick.legs.some((l) => l.bucket_slug === bucket.slug)) return;
  const addon = {
    pick_id: derivedUuid(ctx.seed, 'insurance', city.city_id, pick.local_date, 'addon'),
    leg: leg(ctx, city, event, bucket, 'C', ms),
  };
  const next: InsurancePick = { ...pick, addon, seq: pick.seq + 1 };
  insurancePicks<InsurancePick>(ctx.store.db).put(next);
  emit(ctx, city, next, 'insurance.addon.created', [addon.leg], null, ms);
}

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
