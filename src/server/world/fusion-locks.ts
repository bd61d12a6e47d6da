import type { CityAsset } from '../../contract/assets.js';
import type { FusionLock } from '../../contract/fusion-locks.js';
import { LIMITS } from '../../contract/limits.js';
import type { Bucket } from '../../domain/buckets.js';
import { isoUtc } from '../../domain/city-time.js';
import { bucketProbability } from '../../domain/settlement.js';
import { cToF, round } from '../../domain/units.js';
import { worldMarket } from './cities.js';
import type { WorldContext } from './context.js';

const STAKE = LIMITS.stakeUsd;

/**
 * At the local peak hour the fusion of the running METAR high and the paced forecast locks a bucket: the one the
 * desk's forecast, conditioned on the running high, makes most probable under the market's settlement rule (DESIGN 4).
 * The lock buys YES tokens for a flat stake at the venue's price.
 */
export function lockAtPeak(ctx: WorldContext, city: CityAsset, ms: number): void {
  const { desk, markets, store } = ctx;
  const forecast = desk.primary(city, ms);
  const event = markets.event(city, forecast.date);
  const market = worldMarket(city);
  const chance = (bucket: Bucket) => bucketProbability(bucket, market, forecast, forecast.runningMaxC) ?? 0;
  const lockedBucket = event.buckets.reduce((best, bucket) => (chance(bucket) > chance(best) ? bucket : best));
  const yesPrice = Math.max(0.01, markets.quote('mkta', city, forecast.date, ms, lockedBucket.slug).yes);
  store.upsertLock({
    id: `fl-${city.city_id}-${forecast.date.replaceAll('-', '')}`,
    city_id: city.city_id,
    local_date: forecast.date,
    peak_hour: city.climate.peak_hour,
    locked_at: isoUtc(ms),
    bucket_slug: lockedBucket.slug,
    bucket_label: lockedBucket.label,
    event_slug: event.eventSlug,
    yes_price: yesPrice,
    tokens: round(STAKE / yesPrice, 4),
    resolved: false,
    actual_tmax_f: null,
    actual_tmax_c: null,
    hit: null,
    payout_usd: null,
    pnl_usd: null,
  });
}

/** After local midnight a lock settles on the METAR high; same id, now with the outcome. */
export function resolveLocks(ctx: WorldContext, city: CityAsset, beforeDate: string): void {
  for (const lock of ctx.store.unresolvedLocks(city.city_id)) {
    if (lock.local_date >= beforeDate) continue;
    const actualC = ctx.weather.metarMaxC(city, lock.local_date);
    const hit = ctx.markets.settledBucket(city, lock.local_date).slug === lock.bucket_slug;
    const payout = hit ? round(lock.tokens, 2) : 0;
    const resolved: FusionLock = {
      ...lock,
      resolved: true,
      actual_tmax_c: actualC,
      actual_tmax_f: round(cToF(actualC), 1),
      hit,
      payout_usd: payout,
      pnl_usd: round(payout - lock.tokens * lock.yes_price, 2),
    };
    ctx.store.upsertLock(resolved);
  }
}
