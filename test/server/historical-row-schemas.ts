import Type, { type TSchema } from 'typebox';
import { LocalDate, MarketUnit, Side, Timestamp } from '../../src/contract/common.js';
import type { HistoricalTable } from '../../src/contract/historical.js';

/**
 * The full row of each historical table as the reference service writes it: what the contract tests hold the
 * world's rows to. The monitor reads rows by the spec's minimum (contract/historical.ts HistoricalRow and the
 * checked fields it prices from), since another service may add or leave out fields.
 */
const base = { id: Type.Integer({ minimum: 1 }), city_id: Type.String(), local_date: LocalDate };

const Observation = Type.Object({
  ...base,
  station_code: Type.String(),
  observed_at: Timestamp,
  fetched_at: Timestamp,
  temp_c: Type.Number(),
  temp_f: Type.Number(),
});

const ProviderObservation = Type.Object({
  ...base,
  observed_at: Timestamp,
  fetched_at: Timestamp,
  temp_c: Type.Number(),
  temp_f: Type.Number(),
  humidity: Type.Number(),
});

const BucketSnapshot = Type.Object({
  ...base,
  event_slug: Type.String(),
  snapshot_at: Timestamp,
  bucket_slug: Type.String(),
  bucket_label: Type.String(),
  yes_price: Type.Number({ minimum: 0, maximum: 1 }),
  no_price: Type.Number({ minimum: 0, maximum: 1 }),
});

export const HISTORICAL_ROW: Record<HistoricalTable, TSchema> = {
  metar_observations_history: Type.Object({ ...Observation.properties, raw: Type.String() }),
  wxa_history: ProviderObservation,
  wxb_history: ProviderObservation,
  pws_observations_history: Observation,
  forecast_history: Type.Object({
    ...base,
    fetched_at: Timestamp,
    predicted_max_f: Type.Number(),
    predicted_max_c: Type.Number(),
    sigma_f: Type.Number(),
    sigma_c: Type.Number(),
    pacing_delta: Type.Number(),
    hottest_model: Type.String(),
  }),
  mkta_buckets_history: BucketSnapshot,
  mktb_buckets_history: BucketSnapshot,
  forecast_accuracy_daily: Type.Object({
    ...base,
    unit: MarketUnit,
    predicted_max: Type.Number(),
    actual_max: Type.Number(),
    abs_error: Type.Number({ minimum: 0 }),
    abs_error_c: Type.Number({ minimum: 0 }),
  }),
  market_brief_daily: Type.Object({
    ...base,
    event_slug: Type.String(),
    unit: MarketUnit,
    predicted_max: Type.Number(),
    sigma: Type.Number(),
    favourite_bucket_slug: Type.String(),
    favourite_bucket_label: Type.String(),
    favourite_price: Type.Number(),
    brief: Type.String(),
  }),
  edge_resolved: Type.Object({
    ...base,
    engine_trade_id: Type.Integer(),
    event_slug: Type.String(),
    bucket_slug: Type.String(),
    bucket_label: Type.String(),
    side: Side,
    entry_price: Type.Number(),
    exit_price: Type.Number(),
    qty: Type.Number(),
    operation: Type.Union([Type.Literal('SELL'), Type.Literal('SETTLE')]),
    pnl_usd: Type.Number(),
    entered_at: Timestamp,
    resolved_at: Timestamp,
  }),
  model_forecasts_daily: Type.Object({
    ...base,
    model: Type.String(),
    unit: MarketUnit,
    predicted_max_c: Type.Number(),
    predicted_max_f: Type.Number(),
    predicted_bucket_slug: Type.String(),
    actual_max_c: Type.Number(),
    actual_max_f: Type.Number(),
    actual_bucket_slug: Type.String(),
    exact_hit: Type.Boolean(),
  }),
};
