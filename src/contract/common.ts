import Type, { type Static } from 'typebox';

/** ISO 8601 instant with a UTC designator or offset, as the service writes them (`2026-11-21T14:00:00Z`). */
export const Timestamp = Type.String({
  pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,9})?)?(Z|[+-]\\d{2}:\\d{2})$',
});

/** A calendar date in the city's local time. */
export const LocalDate = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' });

/** Markets settle in degrees F for US and UK cities and degrees C for continental EU cities. */
export const MarketUnit = Type.Union([Type.Literal('F'), Type.Literal('C')]);
export type MarketUnit = Static<typeof MarketUnit>;

export const Side = Type.Union([Type.Literal('YES'), Type.Literal('NO')]);
export type Side = Static<typeof Side>;

/** Every non-2xx body (spec section 7). */
export const ErrorBody = Type.Object({ error: Type.String() }, { additionalProperties: false });
export type ErrorBody = Static<typeof ErrorBody>;

export const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) =>
  Type.Union([schema, Type.Null()]);
