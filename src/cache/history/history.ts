import {
  HISTORICAL_TABLES,
  HISTORICAL_TIME_COLUMN,
  isHistoricalTable,
  STRATEGY_FAMILIES,
  type StrategyFamily,
} from '../../contract/names.js';
import type { RealisedPart } from '../../domain/book-equity.js';
import type { SettledDay } from '../../domain/calibration-summary.js';
import type { SqliteDb } from '../../sqlite/open-database.js';
import type { CountedQueries } from '../db/counted-queries.js';
import { historicalSqlTable, strategySqlTable } from '../db/tables.js';
import { timeBounds } from '../db/time.js';
import { Where } from '../db/where.js';
import type { Venue } from '../market/day-reads.js';
import type { CacheTopic } from '../topics.js';
import { boardRecordDays, type RecordDay, recordDaysOf } from './board-record-days.js';
import type { BrowseFilter } from './browse-filter.js';
import { type CacheSpan, cacheSpan } from './cache-span.js';
import { calibrationDays } from './calibration-days.js';
import { type HistorySummary, historySummary } from './history-summary.js';
import { type KeptRecordDay, KeptRecordDays, type RecordSettledDay, recordSettledDays } from './kept-record-days.js';
import { realisedParts } from './realised-parts.js';

/** What the History pane can browse: every historical table, the strategy families and the fusion locks. */
export const BROWSE_TABLES = [...STRATEGY_FAMILIES, 'fusion-locks', ...HISTORICAL_TABLES] as const;
export type BrowseTable = (typeof BROWSE_TABLES)[number];

/** A row's place in its list: `a` the sort column, `b` the tie-break. */
export interface BrowseKey {
  a: number | string;
  b: number | string;
}

export interface BrowseRow {
  key: BrowseKey;
  row: Record<string, unknown>;
}

/**
 * How one table is paged: an indexed order and the keyset conditions that continue it. Every plan reads rows in
 * index order and stops at the limit, so a page costs the same a million rows deep as on page one.
 */
interface Plan {
  from: string;
  select: string;
  where: Where;
  /** Columns of the key, in list order. */
  order: [string, 'ASC' | 'DESC'][];
  keyOf(row: Record<string, unknown>): BrowseKey;
}

const flip = (dir: 'ASC' | 'DESC') => (dir === 'ASC' ? 'DESC' : 'ASC');

/**
 * A day settles when its lock resolves or its forecast score arrives, and a forecast backfill can add to a settled
 * day. The settled-day reads also read prices and METAR, but the live streams only add rows of days not yet settled,
 * which those reads leave out: a price tick changes nothing they return.
 */
const SETTLED_DAY_TOPICS = [
  'fusion-locks',
  'historical/forecast_accuracy_daily',
  'historical/forecast_history',
] as const satisfies readonly CacheTopic[];

/**
 * The tables whose change can change what each read returns, as the cache's change events name them: what a pane
 * showing the read watches (the History pane's lists are these). A read that starts reading another table adds it
 * here. Browsing a table watches that table (`topicOf`).
 */
export const HISTORY_READ_TOPICS = {
  summary: [...STRATEGY_FAMILIES, 'fusion-locks', 'historical/forecast_accuracy_daily'],
  calibrationDays: SETTLED_DAY_TOPICS,
  boardRecordDays: SETTLED_DAY_TOPICS,
  realisedParts: ['cities', ...STRATEGY_FAMILIES, 'fusion-locks', 'edge-trades'],
} as const satisfies Partial<Record<keyof HistoryRepository, readonly CacheTopic[]>>;

/** What the History pane browses: keyset pages of any browsable table, and the summaries. */
export class HistoryRepository {
  private readonly kept: KeptRecordDays;

  constructor(
    private readonly q: CountedQueries,
    db: SqliteDb,
  ) {
    this.kept = new KeptRecordDays(db, q);
  }

  /** Up to `limit` rows after `after` in list order (null: from the first). */
  older(table: BrowseTable, filter: BrowseFilter, after: BrowseKey | null, limit: number): BrowseRow[] {
    return this.page(table, filter, after, limit, 'older');
  }

  /** Up to `limit` rows before `before` in list order, nearest first. */
  newer(table: BrowseTable, filter: BrowseFilter, before: BrowseKey, limit: number): BrowseRow[] {
    return this.page(table, filter, before, limit, 'newer');
  }

  /** What the book realised, by kind, city-day and instant (realised-parts.ts): the equity curve's rows. */
  realisedParts(filter: BrowseFilter): RealisedPart[] {
    return realisedParts(this.q, filter.cityId);
  }

  /** The summaries of every settled row the filter matches (history-summary.ts): on demand, not per frame. */
  summary(filter: BrowseFilter): HistorySummary {
    return historySummary(this.q, filter);
  }

  /**
   * The settled city-days the filter matches with what their calibration needs (calibration-days.ts): METAR
   * readings, the desk's forecast and the venues' prices at 12:00 local. Bounded by the days' own hours; days in
   * `known` (read before) are not read again.
   */
  calibrationDays(
    filter: BrowseFilter,
    known?: Map<string, SettledDay>,
    venues: readonly Venue[] = ['mkta', 'mktb'],
  ): SettledDay[] {
    return calibrationDays(this.q, filter, venues, known);
  }

  /**
   * Every settled city-day the filter matches with the board as of each whole hour from 09:00 to 16:00 local
   * (board-record-days.ts): what the board's record is computed from. Bounded by the days' own hours; days in `known`
   * (read before) are not read again.
   */
  boardRecordDays(
    filter: BrowseFilter,
    known?: Map<string, RecordDay>,
    venues: readonly Venue[] = ['mkta', 'mktb'],
  ): RecordDay[] {
    return boardRecordDays(this.q, filter, venues, known);
  }

  /** The settled city-days the filter matches, each with the span of instants its record reads (kept-record-days.ts). */
  recordSettledDays(filter: BrowseFilter): RecordSettledDay[] {
    return recordSettledDays(this.q, filter);
  }

  /** The board at each record hour of these settled days (board-record-days.ts); days in `known` are not read again. */
  recordDaysOf(
    days: readonly RecordSettledDay[],
    known?: Map<string, RecordDay>,
    venues: readonly Venue[] = ['mkta', 'mktb'],
  ): RecordDay[] {
    return recordDaysOf(this.q, days, venues, known);
  }

  /** The settled days' records kept (kept-record-days.ts) that the filter matches, by `city_id|local_date`. */
  keptRecordDays(filter: BrowseFilter): Map<string, KeptRecordDay> {
    return this.kept.read(filter);
  }

  /** Reads and works out days' records and keeps them from the same snapshot; false: not kept (kept-record-days.ts). */
  keepRecordDaysAsRead(work: () => readonly KeptRecordDay[]): boolean {
    return this.kept.keepAsRead(work);
  }

  /** The instants the cache's rows cover, oldest to newest; null when it holds none (cache-span.ts). */
  span(): CacheSpan | null {
    return cacheSpan(this.q);
  }

  private page(
    table: BrowseTable,
    filter: BrowseFilter,
    cursor: BrowseKey | null,
    limit: number,
    direction: 'older' | 'newer',
  ): BrowseRow[] {
    if (limit <= 0) return [];
    const plan = planFor(table, filter);
    const order =
      direction === 'older' ? plan.order : plan.order.map(([c, d]) => [c, flip(d)] as [string, 'ASC' | 'DESC']);
    const op = (dir: 'ASC' | 'DESC', strict: boolean) => (dir === 'ASC' ? '>' : '<') + (strict ? '' : '=');
    const [first, second] = order;
    if (cursor && first && !second) plan.where.add(`${first[0]} ${op(first[1], true)} ?`, cursor.a);
    if (cursor && first && second) {
      // a range on the leading column first, so SQLite seeks instead of scanning
      plan.where.add(
        `${first[0]} ${op(first[1], false)} ? AND (${first[0]} ${op(first[1], true)} ? OR ${second[0]} ${op(second[1], true)} ?)`,
        cursor.a,
        cursor.a,
        cursor.b,
      );
    }
    const orderBy = order.map(([c, d]) => `${c} ${d}`).join(', ');
    const sql = `SELECT ${plan.select} FROM ${plan.from}${plan.where} ORDER BY ${orderBy} LIMIT ?`;
    return this.q.all<Record<string, unknown>>(sql, ...plan.where.args, limit).map((r) => ({
      key: plan.keyOf(r),
      row: JSON.parse(String(r.json)) as Record<string, unknown>,
    }));
  }
}

function planFor(table: BrowseTable, filter: BrowseFilter): Plan {
  const where = new Where(filter.cityId);
  const dated = filter.since !== undefined || filter.until !== undefined;
  if ((STRATEGY_FAMILIES as readonly string[]).includes(table)) {
    where.bounds('local_date', timeBounds('date', filter.since, filter.until));
    return {
      from: strategySqlTable(table as StrategyFamily),
      select: 'id, json',
      where,
      order: [['id', 'DESC']],
      keyOf: (r) => ({ a: Number(r.id), b: Number(r.id) }),
    };
  }
  if (table === 'fusion-locks') {
    where.bounds('local_date', timeBounds('date', filter.since, filter.until));
    return {
      from: 'fusion_locks',
      select: 'locked_ms, id, json',
      where,
      order: [
        ['locked_ms', 'DESC'],
        ['id', 'DESC'],
      ],
      keyOf: (r) => ({ a: Number(r.locked_ms), b: String(r.id) }),
    };
  }
  if (!isHistoricalTable(table)) throw new Error(`unknown table ${table}`);
  const name = historicalSqlTable(table);
  if (!dated) {
    // rid = -id: ascending rid is the API's newest-first order
    return {
      from: name,
      select: 'rid, json',
      where,
      order: [['rid', 'ASC']],
      keyOf: (r) => ({ a: Number(r.rid), b: 0 }),
    };
  }
  where.bounds('t', timeBounds(HISTORICAL_TIME_COLUMN[table].kind, filter.since, filter.until));
  return {
    // the time index holds (t DESC, rowid): the date range is one seek, newest first; a city filter is checked
    // on the way (at worst one row in thirteen matches), which beats sorting the whole city's rows
    from: `${name} INDEXED BY ${name}_t`,
    select: 't, rid, json',
    where,
    order: [
      ['t', 'DESC'],
      ['rid', 'ASC'],
    ],
    keyOf: (r) => ({ a: r.t as number | string, b: Number(r.rid) }),
  };
}
