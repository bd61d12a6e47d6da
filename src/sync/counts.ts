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

/** Some of a stream's fetches failed after the others were stored; carries what was stored. */
export class PartialFailure extends Error {
  constructor(
    message: string,
    readonly failures: string[],
    readonly counts: StreamCounts,
    /** The first of the failures as it was thrown: its kind (unreachable, invalid...) is the stream's failure's. */
    readonly first?: unknown,
  ) {
    super(message);
  }
}
