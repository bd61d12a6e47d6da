import type { CityAsset } from '../../contract/assets.js';
import { addDays, localDate } from '../../domain/city-time.js';
import { settledValue } from '../../domain/settlement.js';
import { cToF, deltaToMarketUnit, round, toMarketUnit } from '../../domain/units.js';
import type { WorldContext } from './context.js';
import { settleEdge } from './edge-engine.js';
import { resolveLocks } from './fusion-locks.js';
import { PRODUCTS } from './models.js';
import { openMidnightPicks, settleStrategies } from './strategies.js';

/**
 * One minute after local midnight: yesterday's market has closed, so everything on it settles and its scores are
 * written; then today's brief and the midnight strategy picks. Before the history window only the scores are
 * written (`scoresOnly`), so the first picks already have 30 days of data behind them.
 */
export function midnight(ctx: WorldContext, city: CityAsset, ms: number, scoresOnly: boolean): void {
  const today = localDate(ms, city.tz);
  const yesterday = addDays(today, -1);
  if (!scoresOnly) {
    settleStrategies(ctx, city, today);
    resolveLocks(ctx, city, today);
    settleEdge(ctx, city, today, ms);
  }
  writeScores(ctx, city, yesterday);
  if (!scoresOnly) {
    writeBrief(ctx, city, today, ms);
    openMidnightPicks(ctx, city, today, ms);
  }
}

function writeScores(ctx: WorldContext, city: CityAsset, date: string): void {
  const { markets, models, weather, store } = ctx;
  const actualC = weather.metarMaxC(city, date);
  const actualBucket = markets.settledBucket(city, date);
  for (const product of PRODUCTS) {
    const predictedC = models.productDayAheadC(product, city, date);
    const predictedBucket = markets.forecastBucket(city, date, predictedC);
    store.insertHistorical('model_forecasts_daily', date, {
      city_id: city.city_id,
      local_date: date,
      model: product,
      unit: city.market_unit,
      predicted_max_c: round(predictedC),
      predicted_max_f: round(cToF(predictedC)),
      predicted_bucket_slug: predictedBucket.slug,
      actual_max_c: actualC,
      actual_max_f: round(cToF(actualC), 1),
      actual_bucket_slug: actualBucket.slug,
      exact_hit: predictedBucket.slug === actualBucket.slug,
    });
  }
  const predictedC = models.productDayAheadC('svc_pro', city, date);
  const predicted = round(toMarketUnit(predictedC, city.market_unit), 1);
  const actual = settledValue(actualC, city.market_unit);
  store.insertHistorical('forecast_accuracy_daily', date, {
    city_id: city.city_id,
    local_date: date,
    unit: city.market_unit,
    predicted_max: predicted,
    actual_max: actual,
    abs_error: round(Math.abs(predicted - actual)),
    abs_error_c: round(Math.abs(predictedC - actualC)),
  });
}

function writeBrief(ctx: WorldContext, city: CityAsset, date: string, ms: number): void {
  const { markets, desk, store } = ctx;
  const event = markets.event(city, date);
  const forecast = desk.primary(city, ms);
  const favourite = markets.quotes('mkta', city, date, ms).reduce((a, b) => (b.yes > a.yes ? b : a));
  const predicted = round(toMarketUnit(forecast.muC, city.market_unit), 1);
  const sigma = round(deltaToMarketUnit(forecast.sigmaC, city.market_unit), 2);
  store.insertHistorical('market_brief_daily', date, {
    city_id: city.city_id,
    local_date: date,
    event_slug: event.eventSlug,
    unit: city.market_unit,
    predicted_max: predicted,
    sigma,
    favourite_bucket_slug: favourite.bucket.slug,
    favourite_bucket_label: favourite.bucket.label,
    favourite_price: favourite.yes,
    brief: `${city.city_name} (${city.icao}): primary forecast ${predicted}°${city.market_unit} ±${sigma}; the market favours ${favourite.bucket.label} at ${Math.round(favourite.yes * 100)}¢.`,
  });
}
