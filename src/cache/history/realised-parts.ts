import { STRATEGY_FAMILIES } from '../../contract/names.js';
import type { RealisedPart } from '../../domain/book-equity.js';
import { marketSettlesAt } from '../../domain/market-times.js';
import type { CountedQueries } from '../db/counted-queries.js';
import { strategySqlTable } from '../db/tables.js';
import { Where } from '../db/where.js';

const j = (path: string) => `json_extract(json, '$.${path}')`;

/**
 * What the book realised (domain/book-equity.ts), a row a kind, city-day and instant, summed in SQL: the settled
 * strategy records (stake x roi, as History's strategy summary counts them) and resolved fusion locks (their
 * `pnl_usd`), realised when their day settles (the local midnight after it, DESIGN 4), and the exited edge trades
 * (exit proceeds less entry cost), realised at their exit. Insurance picks are not here: the service reports neither a
 * pick's settlement nor what its kill sold for, so what one made is not in the cache. A read of a few grouped rows a
 * city-day, however many records a day holds.
 */
export function realisedParts(q: CountedQueries, cityId?: string): RealisedPart[] {
  const zones = new Map(
    q
      .all<{ city_id: string; tz: unknown }>("SELECT city_id, json_extract(json, '$.tz') AS tz FROM cities")
      .map((r) => [r.city_id, typeof r.tz === 'string' ? r.tz : 'UTC']),
  );
  const settled = (r: { city_id: string; local_date: string; pnl: number; n: number }): RealisedPart => ({
    ...r,
    realisedMs: marketSettlesAt(r.local_date, zones.get(r.city_id) ?? 'UTC'),
  });
  type Day = { city_id: string; local_date: string; pnl: number; n: number };
  const out: RealisedPart[] = [];
  for (const family of STRATEGY_FAMILIES) {
    const where = new Where(cityId);
    where.add('open = 0');
    const rows = q.all<Day>(
      `SELECT city_id, local_date, coalesce(sum(${j('stake')} * ${j('roi')}), 0) AS pnl, count(*) AS n
       FROM ${strategySqlTable(family)}${where} GROUP BY city_id, local_date`,
      ...where.args,
    );
    out.push(...rows.map(settled));
  }
  const locks = new Where(cityId);
  locks.add('resolved = 1');
  out.push(
    ...q
      .all<Day>(
        `SELECT city_id, local_date, coalesce(sum(${j('pnl_usd')}), 0) AS pnl, count(*) AS n
         FROM fusion_locks${locks} GROUP BY city_id, local_date`,
        ...locks.args,
      )
      .map(settled),
  );
  // a trade known only by its exit has no cost known: not realised, as Positions leaves it unpriced
  const trades = new Where(cityId);
  trades.add("status = 'exited' AND exited_ms IS NOT NULL AND entry_json IS NOT NULL AND exit_json IS NOT NULL");
  out.push(
    ...q.all<RealisedPart>(
      `SELECT city_id, market_date AS local_date, exited_ms AS realisedMs,
         sum(json_extract(exit_json, '$.trade.total_usd') - json_extract(entry_json, '$.trade.total_usd')) AS pnl,
         count(*) AS n
       FROM edge_trades${trades} GROUP BY city_id, market_date, exited_ms`,
      ...trades.args,
    ),
  );
  return out;
}
