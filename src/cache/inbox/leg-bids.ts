import type { Statement } from 'better-sqlite3';
import type { KillSignal } from '../../domain/kill-signal.js';
import { historicalSqlTable } from '../db/tables.js';

type Prepared = (sql: string) => Statement<unknown[]>;

const MKTA = historicalSqlTable('mkta_buckets_history');

/** The city's newest quotes Positions marks to (market/market.ts `quotes`): as many rows, newest first. */
const RECENT_QUOTE_ROWS = 600;

/**
 * A kill's legs with the venue's YES bid of each leg's bucket: the newest mkta `yes_price` of its slug on the kill's
 * market day, as the book is marked (position-pnl.ts, market/market.ts `quotes`); null when none is cached. What a
 * trader told to sell at market gets for it (alerts/kill-alert.ts says it).
 */
export function withBids(prepared: Prepared, signal: KillSignal): KillSignal {
  const rows = prepared(
    `SELECT json_extract(json, '$.local_date') AS local_date, json_extract(json, '$.bucket_slug') AS slug,
       json_extract(json, '$.yes_price') AS yes_price
     FROM ${MKTA} INDEXED BY ${MKTA}_city WHERE city_id = ? ORDER BY rid LIMIT ?`,
  ).all(signal.market.city, RECENT_QUOTE_ROWS) as { local_date: unknown; slug: unknown; yes_price: unknown }[];
  const bidOf = (slug: string | undefined): number | null => {
    const row = rows.find((r) => r.local_date === signal.market.market_date && r.slug === slug);
    return typeof row?.yes_price === 'number' && Number.isFinite(row.yes_price) ? row.yes_price : null;
  };
  return { ...signal, legs: signal.legs.map((leg) => ({ ...leg, bid: bidOf(leg.bucket_slug) })) };
}
