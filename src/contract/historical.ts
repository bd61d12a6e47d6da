import Type, { type Static, type TSchema } from 'typebox';
import { LocalDate, Nullable } from './common.js';

import { HISTORICAL_TABLES, type HistoricalTable } from './names.js';

export { HISTORICAL_TABLES, HISTORICAL_TIME_COLUMN, type HistoricalTable, isHistoricalTable } from './names.js';

/** Every row the spec promises: an integer id, plus the example fields where present. */
export const HistoricalRow = Type.Object({
  id: Type.Integer({ minimum: 1 }),
  city_id: Type.Optional(Type.String()),
  local_date: Type.Optional(LocalDate),
  abs_error: Type.Optional(Type.Number()),
});
export type HistoricalRow = Static<typeof HistoricalRow> & Record<string, unknown>;

export const HistoricalResponse = Type.Object({
  table: Type.String(),
  count: Type.Integer({ minimum: 0 }),
  next_cursor: Nullable(Type.Union([Type.String(), Type.Integer()])),
  data: Type.Array(HistoricalRow),
});
export type HistoricalResponse = Static<typeof HistoricalResponse>;

/**
 * What the monitor checks of each table's rows: the promised fields, plus the fields the screen reads when a row
 * has them (a price is a probability, a METAR reading a number). A row missing them is kept (shown with dashes); a
 * row where one is wrong fails its whole page, so nothing of it is stored.
 */
const checkedPrices = {
  yes_price: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
  no_price: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
};
const checkedReadings = { temp_c: Type.Optional(Type.Number()), temp_f: Type.Optional(Type.Number()) };
const checkedRow = (extra: Record<string, TSchema>) =>
  Type.Object({ ...HistoricalRow.properties, ...extra }) as unknown as typeof HistoricalRow;

const CHECKED_ROW: Partial<Record<HistoricalTable, typeof HistoricalRow>> = {
  mkta_buckets_history: checkedRow(checkedPrices),
  mktb_buckets_history: checkedRow(checkedPrices),
  metar_observations_history: checkedRow(checkedReadings),
};

const responseOf = (row: typeof HistoricalRow) =>
  Type.Object({
    table: Type.String(),
    count: Type.Integer({ minimum: 0 }),
    next_cursor: Nullable(Type.Union([Type.String(), Type.Integer()])),
    data: Type.Array(row),
  });

/** The response of `/historical/<table>` as the monitor validates it (one schema a table, built once). */
export const HISTORICAL_RESPONSE = Object.fromEntries(
  HISTORICAL_TABLES.map((table) => [table, responseOf(CHECKED_ROW[table] ?? HistoricalRow)]),
) as Record<HistoricalTable, typeof HistoricalResponse>;
