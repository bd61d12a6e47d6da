import type { CountedQueries } from '../db/counted-queries.js';
import { NOW_UNBOUNDED } from '../db/time.js';
import { type DayQuote, dayQuoteOf, dayQuotePages, dayQuotes, text, type Venue } from './day-reads.js';

/** Rows a page of the newest-snapshot read: a snapshot is 11 buckets, two markets' snapshots may interleave. */
export const SNAPSHOT_PAGE = 32;

/**
 * The newest snapshot of a city-day's buckets on a venue at or before an instant (DESIGN 4's effective edge is taken
 * from it), lowest bucket first: the city's newest rows by the `(city_id, rid)` index, a small page at a time, until a
 * row of the day from an older snapshot (or an older day) shows the snapshot is complete. A few dozen rows, where
 * `dayQuotes` walks the whole day (as of a past instant, the walk starts at its rows: `quoteWalkStart`). Rows
 * without `snapshot_at` cannot be told apart by snapshot: then the newest quote of each bucket (`dayQuotes`) stands in.
 */
export function newestSnapshot(
  q: CountedQueries,
  venue: Venue,
  cityId: string,
  date: string,
  atMs = NOW_UNBOUNDED,
  maxPages = 40,
): DayQuote[] {
  const out: DayQuote[] = [];
  let snapshot: string | null = null;
  for (const rows of dayQuotePages(q, venue, cityId, date, atMs, SNAPSHOT_PAGE, maxPages)) {
    // a row of an older snapshot ends the walk, after the page: another market's rows interleave
    let older = false;
    for (const r of rows) {
      const at = text(r.snapshot_at);
      if (at === null) return dayQuotes(q, venue, cityId, date, atMs);
      snapshot ??= at;
      if (at === snapshot) out.push(dayQuoteOf(r));
      else older = true;
    }
    if (older) break;
  }
  return out.sort((a, b) => a.id - b.id);
}
