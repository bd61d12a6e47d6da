import type { CityAsset } from '../../contract/assets.js';
import { LIMITS } from '../../contract/limits.js';
import type {
  No24Record,
  StrategyFamily,
  StrategyRecord,
  SvcMaxPickRecord,
  YescoreRecord,
} from '../../contract/strategies.js';
import { STRATEGY_FAMILIES } from '../../contract/strategies.js';
import { bucketProbability } from '../../domain/settlement.js';
import { cToF, round } from '../../domain/units.js';
import { worldMarket } from './cities.js';
import type { WorldContext } from './context.js';
import { askOf } from './market.js';
import { PRODUCTS, type Product } from './models.js';

const STAKE = LIMITS.stakeUsd;
const SVC_MAX_ENTRY_HOUR = 11;
/** yescore adds this to the predicted high in degrees-C markets (spec 2.5 rule 2). */
export const C_MARKET_CORRECTION = 0.5;

const open = { stake: STAKE, outcome: null, roi: null } as const;

/** The products ranked by 30-day exact-hit rate; ties keep the fixed product order. */
function rankProducts(ctx: WorldContext, city: CityAsset, date: string): { product: Product; rate: number }[] {
  return PRODUCTS.map((product) => ({ product, rate: ctx.markets.hitRate(product, city, date) }));
}

/** no24 and yescore: one minute after local midnight, the worst and the best product each pick a bucket. */
export function openMidnightPicks(ctx: WorldContext, city: CityAsset, date: string, ms: number): void {
  const { markets, models, store, desk } = ctx;
  const ranked = rankProducts(ctx, city, date);
  const worst = ranked.reduce((a, b) => (b.rate < a.rate ? b : a));
  const best = ranked.reduce((a, b) => (b.rate > a.rate ? b : a));

  const worstC = models.productDayAheadC(worst.product, city, date);
  const noBucket = markets.forecastBucket(city, date, worstC);
  const noPrice = markets.quote('mkta', city, date, ms, noBucket.slug).no;
  const noAsk = askOf(noPrice);
  store.insertStrategy<No24Record>('no24', {
    city_id: city.city_id,
    local_date: date,
    bucket_slug: noBucket.slug,
    bucket_label: noBucket.label,
    ...open,
    shares: round(STAKE / noAsk, 4),
    side: 'NO',
    strategy: 'no24',
    model: worst.product,
    model_exact_pct: worst.rate,
    predicted_max_c: round(worstC),
    predicted_max_f: round(cToF(worstC)),
    no_ask: noAsk,
    current_no_price: noPrice,
  });

  const bestC = models.productDayAheadC(best.product, city, date);
  const biasC = city.market_unit === 'C' ? C_MARKET_CORRECTION : 0;
  const correctedC = bestC + biasC;
  const yesBucket = markets.forecastBucket(city, date, correctedC);
  const yesPrice = markets.quote('mkta', city, date, ms, yesBucket.slug).yes;
  const yesAsk = askOf(yesPrice);
  const market = worldMarket(city);
  const prob =
    bucketProbability(yesBucket, market, { muC: correctedC, sigmaC: desk.primary(city, ms).sigmaC }, null) ?? 0;
  store.insertStrategy<YescoreRecord>('yescore', {
    city_id: city.city_id,
    local_date: date,
    bucket_slug: yesBucket.slug,
    bucket_label: yesBucket.label,
    ...open,
    shares: round(STAKE / yesAsk, 4),
    side: 'YES',
    strategy: 'yescore',
    model: best.product,
    model_exact_pct: best.rate,
    predicted_max_c: round(bestC),
    corrected_max_c: round(correctedC),
    bias_c: biasC,
    yes_ask: yesAsk,
    edge: round(prob - yesAsk, 4),
    current_yes_price: yesPrice,
  });
}

/** svc-max-picks: at 11:00 local, YES on the most probable bucket only if 0.50 <= ask <= 0.85 and prob > ask. */
export function svcMaxPick(ctx: WorldContext, city: CityAsset, ms: number): void {
  const { desk, markets, store } = ctx;
  const forecast = desk.primary(city, ms);
  const market = worldMarket(city);
  const buckets = markets.event(city, forecast.date).buckets;
  const best = buckets
    .map((bucket) => ({ bucket, prob: bucketProbability(bucket, market, forecast, null) ?? 0 }))
    .reduce((a, b) => (b.prob > a.prob ? b : a));
  const ask = askOf(markets.quote('mkta', city, forecast.date, ms, best.bucket.slug).yes);
  if (ask < LIMITS.svcMaxAskMin || ask > LIMITS.svcMaxAskMax || best.prob <= ask) return;
  store.insertStrategy<SvcMaxPickRecord>('svc-max-picks', {
    city_id: city.city_id,
    local_date: forecast.date,
    bucket_slug: best.bucket.slug,
    bucket_label: best.bucket.label,
    ...open,
    shares: round(STAKE / ask, 4),
    side: 'YES',
    strategy: 'svc_max_11',
    entry_hour: SVC_MAX_ENTRY_HOUR,
    mu_c: forecast.muC,
    sigma_c: forecast.sigmaC,
    n_models: ctx.models.weights(city, forecast.date).length,
    model_prob: round(best.prob, 4),
    yes_ask: ask,
    edge: round(best.prob - ask, 4),
    mode: 'paper',
  });
}

/** Marks open records of today's market to the venue's price. */
export function markOpenRecords(ctx: WorldContext, city: CityAsset, date: string, ms: number): void {
  for (const family of STRATEGY_FAMILIES) {
    for (const record of ctx.store.openStrategies<StrategyRecord>(family, city.city_id)) {
      if (record.local_date !== date) continue;
      const quote = ctx.markets.quote('mkta', city, date, ms, record.bucket_slug);
      ctx.store.updateStrategy(family, withCurrentPrice(record, quote));
    }
  }
}

/** The venue's price of the record's side now; a settled market pays 1 or 0 on each side. */
function withCurrentPrice(record: StrategyRecord, quote: { yes: number; no: number }): StrategyRecord {
  if (record.strategy === 'no24') return { ...record, current_no_price: quote.no };
  if (record.strategy === 'yescore') return { ...record, current_yes_price: quote.yes };
  return record;
}

/** Settles every open record of markets that have closed: win or loss, roi = (payout - stake) / stake. */
export function settleStrategies(ctx: WorldContext, city: CityAsset, beforeDate: string): void {
  for (const family of STRATEGY_FAMILIES as readonly StrategyFamily[]) {
    for (const record of ctx.store.openStrategies<StrategyRecord>(family, city.city_id)) {
      if (record.local_date >= beforeDate) continue;
      const settled = ctx.markets.settledBucket(city, record.local_date);
      const bucketHit = settled.slug === record.bucket_slug;
      const win = record.side === 'YES' ? bucketHit : !bucketHit;
      const payout = win ? record.shares : 0;
      const resolved = {
        ...withCurrentPrice(record, { yes: bucketHit ? 1 : 0, no: bucketHit ? 0 : 1 }),
        outcome: win ? 'win' : 'loss',
        roi: round((payout - record.stake) / record.stake, 4),
      } as StrategyRecord;
      ctx.store.updateStrategy(family, resolved);
    }
  }
}
