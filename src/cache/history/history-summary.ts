import { STRATEGY_FAMILIES, type StrategyFamily } from '../../contract/names.js';
import type { CountedQueries } from '../db/counted-queries.js';
import { historicalSqlTable, strategySqlTable } from '../db/tables.js';
import { timeBounds } from '../db/time.js';
import { Where } from '../db/where.js';
import type { BrowseFilter } from './browse-filter.js';

export interface StrategySummary {
  family: StrategyFamily;
  city_id: string;
  open: number;
  settled: number;
  wins: number;
  /** Stake of the settled records. */
  staked: number;
  /** Sum of stake x roi over the settled records. */
  pnl: number;
}

export interface LockSummary {
  city_id: string;
  resolved: number;
  hits: number;
  staked: number;
  pnl: number;
}

export interface ForecastErrorSummary {
  city_id: string;
  unit: 'F' | 'C';
  days: number;
  /** Mean absolute error in the market's unit, and in degrees C. */
  mae: number;
  mae_c: number;
  worst: number;
}

export interface HistorySummary {
  strategies: StrategySummary[];
  locks: LockSummary[];
  forecastError: ForecastErrorSummary[];
}

const j = (path: string) => `json_extract(json, '$.${path}')`;

/**
 * The History pane's summaries. They aggregate every settled row that matches the filter (one scan of each
 * family's table, the resolved locks and the forecast scores), so the pane computes them on demand, not per frame.
 */
export function historySummary(q: CountedQueries, filter: BrowseFilter): HistorySummary {
  const dates = timeBounds('date', filter.since, filter.until);
  const strategies: StrategySummary[] = [];
  for (const family of STRATEGY_FAMILIES) {
    const where = new Where(filter.cityId);
    where.bounds('local_date', dates);
    const rows = q.all<Omit<StrategySummary, 'family'>>(
      `SELECT city_id, sum(open) AS open, sum(1 - open) AS settled, coalesce(sum(${j('outcome')} = 'win'), 0) AS wins,
         coalesce(sum(CASE WHEN open = 0 THEN ${j('stake')} END), 0) AS staked,
         coalesce(sum(CASE WHEN open = 0 THEN ${j('stake')} * ${j('roi')} END), 0) AS pnl
       FROM ${strategySqlTable(family)}${where} GROUP BY city_id ORDER BY city_id`,
      ...where.args,
    );
    strategies.push(...rows.map((r) => ({ family, ...r })));
  }
  const lockWhere = new Where(filter.cityId);
  lockWhere.add('resolved = 1');
  lockWhere.bounds('local_date', dates);
  const locks = q.all<LockSummary>(
    `SELECT city_id, count(*) AS resolved, coalesce(sum(${j('hit')}), 0) AS hits,
       coalesce(sum(${j('yes_price')} * ${j('tokens')}), 0) AS staked, coalesce(sum(${j('pnl_usd')}), 0) AS pnl
     FROM fusion_locks${lockWhere} GROUP BY city_id ORDER BY city_id`,
    ...lockWhere.args,
  );
  const errorWhere = new Where(filter.cityId);
  errorWhere.bounds('t', dates);
  const forecastError = q.all<ForecastErrorSummary>(
    `SELECT city_id, ${j('unit')} AS unit, count(*) AS days, avg(${j('abs_error')}) AS mae,
       avg(${j('abs_error_c')}) AS mae_c, max(${j('abs_error')}) AS worst
     FROM ${historicalSqlTable('forecast_accuracy_daily')}${errorWhere} GROUP BY city_id ORDER BY city_id`,
    ...errorWhere.args,
  );
  return { strategies, locks, forecastError };
}
