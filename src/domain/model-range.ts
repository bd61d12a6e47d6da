import type { ModelTmaxRange } from '../contract/forecasts.js';
import { cToF, fToC } from './units.js';

/**
 * The products of `model_forecasts_daily` that are blends of the models, not models (DESIGN 4 `model`): the desk's
 * forecast, the weighted ensemble and the plain mean. Every other product is one model.
 */
export const BLENDED_PRODUCTS: readonly string[] = ['svc_pro', 'edge_ensemble', 'model_mean'];

/** One product's forecast of a day's high, in either unit or both (`model_forecasts_daily`). */
export interface ProductHigh {
  model: string;
  predicted_max_c: number | null;
  predicted_max_f: number | null;
}

/** A product's high in both units: each as the row gives it, the other converted where it gives only one. */
export function highOf(p: ProductHigh): { c: number; f: number } | null {
  const c = p.predicted_max_c ?? (p.predicted_max_f === null ? null : fToC(p.predicted_max_f));
  const f = p.predicted_max_f ?? (p.predicted_max_c === null ? null : cToF(p.predicted_max_c));
  return c === null || f === null ? null : { c, f };
}

/**
 * The models' spread of a day's high as `model_tmax_range` states it (spec 2.3), worked out from each model's own
 * forecast of the day (the products of `model_forecasts_daily` that are not blends): every model's Tmax in °F, the
 * lowest, the highest and their unweighted mean in both units, `spread` the highest minus the lowest (°F). Null
 * without a model. What the board's spread, its BREAKTHROUGH (the running high above the warmest model) and Forecasts'
 * MODELS read when no polled `model_tmax_range` of the day is cached, as in a replay of a backfilled cache.
 */
export function modelRangeOf(
  products: readonly ProductHigh[],
  day: { city_id: string; local_date: string; station_code: string },
): ModelTmaxRange | null {
  const models = products.flatMap((p) => {
    const high = BLENDED_PRODUCTS.includes(p.model) ? null : highOf(p);
    return high ? [{ model: p.model, ...high }] : [];
  });
  if (models.length === 0) return null;
  const pick = (unit: 'c' | 'f', by: (a: number, b: number) => number) =>
    models.map((m) => m[unit]).reduce((a, b) => (by(a, b) === a ? a : b));
  const mean = (unit: 'c' | 'f') => models.reduce((sum, m) => sum + m[unit], 0) / models.length;
  const [minF, maxF, meanF] = [pick('f', Math.min), pick('f', Math.max), mean('f')];
  const spread = maxF - minF;
  return {
    ...day,
    unit: 'F',
    tmax_min: minF,
    tmax_min_f: minF,
    tmax_min_c: pick('c', Math.min),
    tmax_max: maxF,
    tmax_max_f: maxF,
    tmax_max_c: pick('c', Math.max),
    tmax_mean: meanF,
    tmax_mean_f: meanF,
    tmax_mean_c: mean('c'),
    spread,
    spread_f: spread,
    n_models: models.length,
    models: models.map((m) => ({ model: m.model, tmax: m.f })),
  };
}
