import type { MarketUnit } from '../contract/common.js';
import type { SvcProForecast } from '../contract/forecasts.js';
import type { HighForecast } from './settlement.js';

/**
 * The figures of `svc_pro_forecast` read here: the mean and sigma of the day's high, in both units' aliases, and when
 * the desk made it.
 */
export type DeskAliases = Partial<
  Pick<SvcProForecast, 'predicted_max_f' | 'predicted_max_c' | 'sigma_f' | 'sigma_c' | 'fetched_at'>
>;

const finite = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/**
 * What DESIGN 4 prices with: X ~ N(mu_c, sigma_c), the `_c` aliases of `svc_pro_forecast`, whatever the market's
 * unit. Not checked here: settlement.ts's `usableForecast` turns a missing, zero, negative or infinite figure into
 * "no price" (null), never NaN.
 */
export function highForecastOf(primary: DeskAliases | null | undefined): Partial<HighForecast> | null {
  if (!primary) return null;
  return { muC: finite(primary.predicted_max_c) ?? undefined, sigmaC: finite(primary.sigma_c) ?? undefined };
}

/**
 * The desk's forecast in the unit shown, the one place it is chosen: the API's own alias of that unit (converting
 * here could round a half the other way: sigma 0.27 °F is 0.15 °C, the alias 0.15). Null unless both are numbers.
 */
export function forecastIn(
  primary: DeskAliases | null | undefined,
  unit: MarketUnit,
): { mu: number; sigma: number } | null {
  const mu = finite(unit === 'F' ? primary?.predicted_max_f : primary?.predicted_max_c);
  const sigma = finite(unit === 'F' ? primary?.sigma_f : primary?.sigma_c);
  return mu === null || sigma === null ? null : { mu, sigma };
}
