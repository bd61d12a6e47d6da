import Type, { type Static } from 'typebox';
import { LIMITS } from './limits.js';

/** `YYYY-MM-DD` or an ISO 8601 instant; calendar validity and `since <= until` are checked by the route. */
const DateOrInstant = Type.String({
  pattern: '^\\d{4}-\\d{2}-\\d{2}(T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,9})?)?(Z|[+-]\\d{2}:?\\d{2}))?$',
});

const pageSize = (maximum: number) => Type.Integer({ minimum: 1, maximum, default: LIMITS.defaultPageSize });

export const CityQuery = Type.Object({ city_id: Type.String({ minLength: 1 }) });
export type CityQuery = Static<typeof CityQuery>;

export const HistoricalQuery = Type.Object({
  city_id: Type.Optional(Type.String({ minLength: 1 })),
  since: Type.Optional(DateOrInstant),
  until: Type.Optional(DateOrInstant),
  limit: pageSize(LIMITS.maxPageSize),
  cursor: Type.Optional(Type.String({ pattern: '^[1-9][0-9]{0,15}$' })),
});
export type HistoricalQuery = Static<typeof HistoricalQuery>;

export const StrategyQuery = Type.Object({
  city_id: Type.Optional(Type.String({ minLength: 1 })),
  date: Type.Optional(Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' })),
  status: Type.Optional(Type.Union([Type.Literal('open'), Type.Literal('resolved')])),
  limit: pageSize(LIMITS.maxPageSize),
});
export type StrategyQuery = Static<typeof StrategyQuery>;

export const FusionLockQuery = Type.Object({
  city_id: Type.Optional(Type.String({ minLength: 1 })),
  since: Type.Optional(DateOrInstant),
  resolved: Type.Optional(Type.Union([Type.Literal('true'), Type.Literal('false')])),
  limit: pageSize(LIMITS.maxFusionLockPageSize),
  cursor: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9_-]{1,200}$' })),
});
export type FusionLockQuery = Static<typeof FusionLockQuery>;
