import Type, { type Static } from 'typebox';
import { LocalDate, Timestamp } from './common.js';

export const SvcProForecast = Type.Object({
  city_id: Type.String(),
  local_date: LocalDate,
  station_code: Type.String(),
  unit: Type.Literal('F'),
  predicted_max: Type.Number(),
  predicted_max_f: Type.Number(),
  predicted_max_c: Type.Number(),
  sigma: Type.Number({ minimum: 0 }),
  sigma_f: Type.Number({ minimum: 0 }),
  sigma_c: Type.Number({ minimum: 0 }),
  pacing_delta: Type.Number(),
  pacing_source: Type.String(),
  hottest_model: Type.String(),
  models_used: Type.Array(Type.Object({ model: Type.String(), weight: Type.Number(), mae: Type.Number() })),
  hourly: Type.Optional(Type.Array(Type.Object({ h: Type.String({ pattern: '^\\d{2}:\\d{2}$' }), t: Type.Number() }))),
  hourly_unit: Type.Literal('C'),
  reasoning: Type.String(),
  fetched_at: Timestamp,
});
export type SvcProForecast = Static<typeof SvcProForecast>;

export const EdgeEnsembleDaily = Type.Object({
  city_id: Type.String(),
  local_date: LocalDate,
  unit: Type.Literal('C'),
  fc_mean: Type.Number(),
  fc_mean_c: Type.Number(),
  fc_mean_f: Type.Number(),
  tmax_mean_c: Type.Number(),
  tmax_mean_f: Type.Number(),
  sigma: Type.Number({ minimum: 0 }),
  sigma_c: Type.Number({ minimum: 0 }),
  sigma_f: Type.Number({ minimum: 0 }),
  models: Type.Array(Type.Object({ model: Type.String(), weight: Type.Number() })),
  models_used: Type.Array(Type.String()),
  n_models: Type.Integer({ minimum: 0 }),
  fetched_at: Type.Optional(Timestamp),
});
export type EdgeEnsembleDaily = Static<typeof EdgeEnsembleDaily>;

export const ModelTmaxRange = Type.Object({
  city_id: Type.String(),
  local_date: LocalDate,
  station_code: Type.String(),
  unit: Type.Literal('F'),
  tmax_min: Type.Number(),
  tmax_min_f: Type.Number(),
  tmax_min_c: Type.Number(),
  tmax_max: Type.Number(),
  tmax_max_f: Type.Number(),
  tmax_max_c: Type.Number(),
  tmax_mean: Type.Number(),
  tmax_mean_f: Type.Number(),
  tmax_mean_c: Type.Number(),
  spread: Type.Number({ minimum: 0 }),
  spread_f: Type.Number({ minimum: 0 }),
  n_models: Type.Integer({ minimum: 0 }),
  models: Type.Array(Type.Object({ model: Type.String(), tmax: Type.Number() })),
  fetched_at: Type.Optional(Timestamp),
});
export type ModelTmaxRange = Static<typeof ModelTmaxRange>;

export { FORECAST_LAYERS, type ForecastLayerName } from './names.js';

export const Forecasts = Type.Object({
  city_id: Type.String(),
  svc_pro_forecast: SvcProForecast,
  edge_ensemble_daily: EdgeEnsembleDaily,
  model_tmax_range: ModelTmaxRange,
});
export type Forecasts = Static<typeof Forecasts>;

export const ForecastsResponse = Type.Object({ data: Forecasts });
export type ForecastsResponse = Static<typeof ForecastsResponse>;
