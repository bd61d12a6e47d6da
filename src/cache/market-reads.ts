import type { CountedQueries } from './counted-queries.js';
import { historicalSqlTable } from './schema.js';

/** One bucket's price at one mkta snapshot (from `mkta_buckets_history`). */
export interface BucketQuote {
  local_date: string;
  bucket_slug: string;
  bucket_label: string;
  yes_price: number;
  no_price: number;
  snapshot_at: string;
}

/** A METAR reading of the chart: from `/current` polls and, when backfilled, `metar_observations_history`. */
export interface MetarPoint {
  ms: number;
  temp_f: number;
  temp_c: number | null;
}

/**
 * The newest quotes of one city's markets, by (market date, bucket slug) and by (market date, bucket label): edge
 * trades name their bucket by label only.
 */
export class QuoteBook {
  private readonly bySlug = new Map<string, BucketQuote>();
  private readonly byLabel = new Map<string, BucketQuote>();

  /** `quotes` newest first: the first quote of a bucket is its latest. */
  constructor(readonly quotes: readonly BucketQuote[]) {
    for (const q of quotes) {
      const slug = `${q.local_date}|${q.bucket_slug}`;
      if (!this.bySlug.has(slug)) this.bySlug.set(slug, q);
      const label = `${q.local_date}|${q.bucket_label}`;
      if (!this.byLabel.has(label)) this.byLabel.set(label, q);
    }
  }

  bySlugOf(date: string, slug: string): BucketQuote | undefined {
    return this.bySlug.get(`${date}|${slug}`);
  }

  byLabelOf(date: string, label: string): BucketQuote | undefined {
    return this.byLabel.get(`${date}|${label}`);
  }

  /** The buckets of the newest snapshot of one market, in the venue's order (lowest bucket first). */
  latestSnapshot(date: string): BucketQuote[] {
    const newest = this.quotes.find((q) => q.local_date === date)?.snapshot_at;
    if (newest === undefined) return [];
    return this.quotes.filter((q) => q.local_date === date && q.snapshot_at === newest).reverse();
  }
}

/**
 * Rows of a city's newest quotes to read: 11 buckets an hour is 264 a day, so this covers every market of the last
 * two days, which is as old as an open position gets.
 */
export const RECENT_QUOTE_ROWS = 600;

export class MarketReads {
  constructor(private readonly q: CountedQueries) {}

  /** The newest quotes of a city's markets (empty when `mkta_buckets_history` was never backfilled). */
  quotes(cityId: string, rows = RECENT_QUOTE_ROWS): QuoteBook {
    const quotes = this.q.all<BucketQuote>(
      `SELECT json_extract(json, '$.local_date') AS local_date, json_extract(json, '$.bucket_slug') AS bucket_slug,
         json_extract(json, '$.bucket_label') AS bucket_label, json_extract(json, '$.yes_price') AS yes_price,
         json_extract(json, '$.no_price') AS no_price, json_extract(json, '$.snapshot_at') AS snapshot_at
       FROM ${historicalSqlTable('mkta_buckets_history')} WHERE city_id = ? ORDER BY rid LIMIT ?`,
      cityId,
      rows,
    );
    return new QuoteBook(quotes);
  }

  /** METAR readings of a city from `sinceMs` on, oldest first, one a distinct instant. */
  metarSince(cityId: string, sinceMs: number): MetarPoint[] {
    const polled = this.q.all<{ ms: number; temp_f: number; temp_c: number | null }>(
      `SELECT fetched_ms AS ms, temp_f, json_extract(json, '$.temp_c') AS temp_c FROM current_obs
       WHERE city_id = ? AND source = 'metar_observations' AND fetched_ms >= ? ORDER BY fetched_ms`,
      cityId,
      sinceMs,
    );
    const table = historicalSqlTable('metar_observations_history');
    const history = this.q.all<{ ms: number; temp_f: number; temp_c: number | null }>(
      `SELECT t AS ms, json_extract(json, '$.temp_f') AS temp_f, json_extract(json, '$.temp_c') AS temp_c
       FROM ${table} INDEXED BY ${table}_t WHERE t >= ? AND city_id = ? ORDER BY t`,
      sinceMs,
      cityId,
    );
    const byMs = new Map<number, MetarPoint>();
    for (const p of [...history, ...polled]) if (typeof p.temp_f === 'number') byMs.set(p.ms, p);
    return [...byMs.values()].sort((a, b) => a.ms - b.ms);
  }
}
