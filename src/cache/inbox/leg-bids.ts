import type { Statement } from 'better-sqlite3';
import type { KillSignal } from '../../domain/kill-signal.js';
import { historicalSqlTable } from '../db/tables.js';

type Prepared = (sql: string) => Statement<unknown[]>;

const MKTA = historicalSqlTable('mkta_buckets_history');

/** The city's newest quotes Positions marks to (market/market.ts `quotes`): as many rows, newest first. */
const RECENT_QUOTE_ROWS = 600;

/**
 * A kill's legs with the venue's YES bid of each leg's bucket, from the newest mkta snapshot of its slug on the kill's
 * market day; null when none is cached. A snapshot carries the price to BUY each side (`yes_price`, `no_price`: their
 * sum less 1 is the spread), so selling YES gets what a NO buyer pays for the other side: 1 - `no_price` (a dying tail
 * quoted 0.05 / 0.999 bids 0.001, not 0.05). What a trader told to sell at market gets (alerts/kill-alert.ts says it).
 * The rows are the city's newest, of every listed day (today's and tomorrow's), matched to the kill's day here.
 */
export function withBids(prepared: Prepared, signal: KillSignal): KillSignal {
  const rows = prepared(
    `SELECT json_extract(json, '$.local_date') AS local_date, json_extract(json, '$.bucket_slug') AS slug,
       json_extract(json, '$.no_price') AS no_price
     FROM ${MKTA} INDEXED BY ${MKTA}_city WHERE city_id = ? ORDER BY rid LIMIT ?`,
  ).all(signal.market.city, RECENT_QUOTE_ROWS) as { local_date: unknown; slug: unknown; no_price: unknown }[];
  const bidOf = (slug: string | undefined): number | null => {
    const row = rows.find((r) => r.local_date === signal.market.market_date && r.slug === slug);
    const no = row?.no_price;
    return typeof no === 'number' && Number.isFinite(no) && no >= 0 && no <= 1
      ? Math.round((1 - no) * 10_000) / 10_000
      : null;
  };
  return { ...signal, legs: signal.legs.map((leg) => ({ ...leg, bid: bidOf(leg.bucket_slug) })) };
}
