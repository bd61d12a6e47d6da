import type { Statement } from 'better-sqlite3';
import {
  CURRENT_SOURCES,
  exportNameProblem,
  FORECAST_LAYERS,
  HISTORICAL_TIME_COLUMN,
  isHistoricalTable,
  STRATEGY_FAMILIES,
  type StrategyFamily,
} from '../contract/names.js';
import { escapedText } from '../domain/escaped-text.js';
import { ALERT_COLUMNS, type AlertRow } from './alerts.js';
import { CacheError } from './db/cache-error.js';
import { historicalSqlTable, strategySqlTable } from './db/tables.js';
import { timeBounds } from './db/time.js';
import { Where } from './db/where.js';
import {
  PICK_COLUMNS,
  type PickRow,
  pickView,
  TRADE_COLUMNS,
  type TradeRow,
  tradeView,
} from './inbox/pick-trade-views.js';

export { EXPORT_NAMES } from '../contract/names.js';

export interface ExportFilter {
  cityId?: string;
  since?: string;
  until?: string;
}

/**
 * Refuses a NAME not in EXPORT_NAMES, before anything is read, saying which name and the valid ones. A key typed in
 * the name's place is not printed back: the CLI cuts every long value typed out of its messages (typed-values.ts).
 */
export function checkExportName(name: string): void {
  const problem = exportNameProblem(name);
  if (problem) throw new CacheError(problem);
}

const REJECTED_COLUMNS = 'id, received_at, reason, event_type, event_id, delivery_id, body';
interface RejectedRow {
  id: number;
  received_at: string;
  reason: string;
  event_type: string | null;
  event_id: string | null;
  delivery_id: string | null;
  body: Buffer | string;
}

/** `ORDER BY` term putting sources or layers in the order the API's object lists them. */
const memberOrder = (column: string, names: readonly string[]) =>
  `CASE ${column} ${names.map((n, i) => `WHEN '${n}' THEN ${i}`).join(' ')} END`;

type Prepared = (sql: string) => Statement<unknown[]>;

/**
 * `svc-monitor export NAME`: the exact JSON texts stored, newest version of each row, in API order (alerts and the
 * inbox's rows: their own serialisation, below). `since`/`until` filter on the export's time column (the API's for
 * resources; created_at of alerts, received_at of webhook events, market_date of picks and edge trades); they do
 * not apply to cities. Unknown NAME or a bad date: CacheError.
 */
export class ExportRepository {
  constructor(private readonly prepared: Prepared) {}

  /** Every row of one export NAME. */
  rows(name: string, filter?: ExportFilter): string[] {
    return [...this.iterate(name, filter)];
  }

  /**
   * `rows` lazily, for large tables. The name and filter are checked at once; the statement holds the connection
   * until the iteration ends, so finish or abandon it before writing.
   */
  iterate(name: string, filter: ExportFilter = {}): IterableIterator<string> {
    const where = new Where(filter.cityId);
    const own = ownRows(this.prepared, name, filter, where);
    if (own) return own[Symbol.iterator]();
    const sql = querySql(name, filter, where);
    return this.prepared(sql)
      .pluck()
      .iterate(...where.args) as IterableIterator<string>;
  }
}

/**
 * The monitor's own rows, serialised here: alerts; webhook events as `{seq, event_type, event_id, delivery_id,
 * received_at, payload}` (the body as received, parsed, so ndjson stays one line a row; the exact bytes stay in
 * the inbox); insurance picks and edge trades as their merged views; rejected webhooks as `{id, received_at, reason,
 * event_type, event_id, delivery_id, body}`, the body as escaped text (domain/escaped-text.ts: it may be anything,
 * and a CSV printed to a terminal must not carry its control characters). Events and rejections filter on
 * received_at, picks and trades on market_date.
 */
function ownRows(prepared: Prepared, name: string, filter: ExportFilter, where: Where): string[] | undefined {
  const { since, until } = filter;
  if (name === 'alerts') {
    where.bounds('created_ms', timeBounds('instant', since, until));
    const rows = prepared(`SELECT ${ALERT_COLUMNS} FROM alerts${where} ORDER BY id DESC`).all(...where.args);
    return (rows as AlertRow[]).map((row) => JSON.stringify(row));
  }
  if (name === 'webhook-events') {
    where.bounds('received_ms', timeBounds('instant', since, until));
    const sql = `SELECT seq, event_type, event_id, delivery_id, received_at, body FROM webhook_events${where} ORDER BY seq DESC`;
    return (prepared(sql).all(...where.args) as { body: string }[]).map(({ body, ...row }) =>
      JSON.stringify({ ...row, payload: JSON.parse(body) }),
    );
  }
  if (name === 'rejected-webhooks') {
    if (filter.cityId !== undefined)
      throw new CacheError('--city does not apply to rejected-webhooks: they have no city');
    where.bounds('received_ms', timeBounds('instant', since, until));
    const sql = `SELECT ${REJECTED_COLUMNS} FROM rejected_webhooks${where} ORDER BY id DESC`;
    return (prepared(sql).all(...where.args) as RejectedRow[]).map(({ body, ...row }) =>
      JSON.stringify({ ...row, body: escapedText(typeof body === 'string' ? Buffer.from(body) : body) }),
    );
  }
  if (name === 'insurance-picks') {
    where.bounds('market_date', timeBounds('date', since, until));
    const sql = `SELECT ${PICK_COLUMNS} FROM insurance_picks${where} ORDER BY coalesce(created_ms, killed_ms) DESC, pick_id`;
    return prepared(sql)
      .all(...where.args)
      .map((row) => JSON.stringify(pickView(row as PickRow)));
  }
  if (name === 'edge-trades') {
    where.bounds('market_date', timeBounds('date', since, until));
    const sql = `SELECT ${TRADE_COLUMNS} FROM edge_trades${where} ORDER BY engine_trade_id DESC`;
    return prepared(sql)
      .all(...where.args)
      .map((row) => JSON.stringify(tradeView(row as TradeRow)));
  }
  return undefined;
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
  checkExportName(name);
  throw new CacheError(`export ${name} has no query`);
}
