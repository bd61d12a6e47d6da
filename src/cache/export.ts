import type { Statement } from 'better-sqlite3';
import { CURRENT_SOURCES } from '../contract/current.js';
import { FORECAST_LAYERS } from '../contract/forecasts.js';
import { HISTORICAL_TABLES, HISTORICAL_TIME_COLUMN, isHistoricalTable } from '../contract/historical.js';
import { STRATEGY_FAMILIES, type StrategyFamily } from '../contract/strategies.js';
import { ALERT_COLUMNS, type AlertRow } from './meta.js';
import { CacheError } from './open-cache.js';
import { historicalSqlTable, strategySqlTable } from './schema.js';
import { type Bounds, timeBounds } from './time.js';

export interface ExportFilter {
  cityId?: string;
  since?: string;
  until?: string;
}

/** The NAMEs of `svc-monitor export` (DESIGN.md section 3). */
export const EXPORT_NAMES: readonly string[] = [
  'cities',
  'current',
  'forecasts',
  'fusion-locks',
  ...STRATEGY_FAMILIES,
  ...HISTORICAL_TABLES.map((t) => `historical/${t}`),
  'webhook-events',
  'insurance-picks',
  'edge-trades',
  'alerts',
];

/**
 * The names whose rows arrive through the webhook receiver. Its durable inbox lands with issue 5; until then the
 * cache holds none of them and their export is empty (a valid, empty document in every format).
 */
const WEBHOOK_NAMES = new Set(['webhook-events', 'insurance-picks', 'edge-trades']);

/** `ORDER BY` term putting sources or layers in the order the API's object lists them. */
const memberOrder = (column: string, names: readonly string[]) =>
  `CASE ${column} ${names.map((n, i) => `WHEN '${n}' THEN ${i}`).join(' ')} END`;

/**
 * Rows of one export NAME, lazily, as the JSON texts stored (what the API sent; alerts: their own rows). The name
 * and filter are checked at once (CacheError); the statement holds the connection until the iteration ends, so
 * finish or abandon it before writing.
 */
export function exportIterate(
  prepared: (sql: string) => Statement<unknown[]>,
  name: string,
  filter: ExportFilter = {},
): IterableIterator<string> {
  if (WEBHOOK_NAMES.has(name)) return [][Symbol.iterator]();
  const where = new Where(filter.cityId);
  if (name === 'alerts') {
    where.bounds('created_ms', timeBounds('instant', filter.since, filter.until));
    const rows = prepared(`SELECT ${ALERT_COLUMNS} FROM alerts${where} ORDER BY id DESC`).all(...where.args);
    return (rows as AlertRow[]).map((row) => JSON.stringify(row))[Symbol.iterator]();
  }
  const sql = querySql(name, filter, where);
  return prepared(sql)
    .pluck()
    .iterate(...where.args) as IterableIterator<string>;
}

function querySql(name: string, filter: ExportFilter, where: Where): string {
  const { since, until } = filter;
  if (name === 'cities') return `SELECT json FROM cities${where} ORDER BY city_id`;
  if (name === 'current' || name === 'forecasts') {
    where.bounds('fetched_ms', timeBounds('instant', since, until));
    const [table, order] =
      name === 'current'
        ? ['current_obs', memberOrder('source', CURRENT_SOURCES)]
        : ['forecasts', memberOrder('layer', FORECAST_LAYERS)];
    return `SELECT json FROM ${table}${where} ORDER BY fetched_ms, city_id, ${order}`;
  }
  if (name === 'fusion-locks') {
    where.bounds('locked_ms', timeBounds('instant', since, until));
    return `SELECT json FROM fusion_locks${where} ORDER BY locked_ms DESC, id DESC`;
  }
  if ((STRATEGY_FAMILIES as readonly string[]).includes(name)) {
    where.bounds('local_date', timeBounds('date', since, until));
    return `SELECT json FROM ${strategySqlTable(name as StrategyFamily)}${where} ORDER BY id DESC`;
  }
  const table = name.startsWith('historical/') ? name.slice('historical/'.length) : '';
  if (isHistoricalTable(table)) {
    where.bounds('t', timeBounds(HISTORICAL_TIME_COLUMN[table].kind, since, until));
    return `SELECT json FROM ${historicalSqlTable(table)}${where} ORDER BY rid`;
  }
  throw new CacheError(`unknown export name '${name}'; valid names: ${EXPORT_NAMES.join(', ')}`);
}

/** The optional filters of a query, as SQL and its bound values. */
export class Where {
  private readonly parts: string[] = [];
  readonly args: unknown[] = [];

  constructor(cityId?: string) {
    if (cityId !== undefined) this.add('city_id = ?', cityId);
  }

  add(sql: string, ...values: unknown[]): void {
    this.parts.push(sql);
    this.args.push(...values);
  }

  bounds(column: string, b: Bounds): void {
    if (b.since !== undefined) this.add(`${column} >= ?`, b.since);
    if (b.until !== undefined) this.add(`${column} <= ?`, b.until);
  }

  toString(): string {
    return this.parts.length === 0 ? '' : ` WHERE ${this.parts.join(' AND ')}`;
  }
}
