import Type, { type Static } from 'typebox';
import { LocalDate, Nullable, Timestamp } from './common.js';

export const FusionLock = Type.Object({
  id: Type.String({ minLength: 1 }),
  city_id: Type.String(),
  local_date: LocalDate,
  peak_hour: Type.Integer({ minimum: 0, maximum: 23 }),
  locked_at: Timestamp,
  bucket_slug: Type.String(),
  bucket_label: Type.String(),
  event_slug: Type.String(),
  yes_price: Type.Number(),
  tokens: Type.Number(),
  resolved: Type.Boolean(),
  actual_tmax_f: Nullable(Type.Number()),
  actual_tmax_c: Nullable(Type.Number()),
  hit: Nullable(Type.Boolean()),
  payout_usd: Nullable(Type.Number()),
  pnl_usd: Nullable(Type.Number()),
});
export type FusionLock = Static<typeof FusionLock>;

export const FusionLocksResponse = Type.Object({
  count: Type.Integer({ minimum: 0 }),
  next_cursor: Nullable(Type.String()),
  data: Type.Array(FusionLock),
});
export type FusionLocksResponse = Static<typeof FusionLocksResponse>;
