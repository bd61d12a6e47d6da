import type { WriteCounts } from '../cache/index.js';

/** What one stream did in a pass: rows fetched from the service, and what they changed in the cache. */
export interface StreamCounts {
  fetched: number;
  inserted: number;
  updated: number;
}

export const noCounts = (): StreamCounts => ({ fetched: 0, inserted: 0, updated: 0 });

export function addCounts(into: StreamCounts, fetched: number, written: WriteCounts): StreamCounts {
  into.fetched += fetched;
  into.inserted += written.inserted;
  into.updated += written.updated;
  return into;
}
