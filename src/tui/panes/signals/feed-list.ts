import { type Cache, compareFeed, type FeedKey, type Signal } from '../../../cache/index.js';
import type { SteppedKeysetSource } from '../../state/keyset-strip.js';

/** The Signals feed as it had come by `atMs` (undefined: live), newest first, read a source at a time. */
export function feedAt(cache: Cache, atMs: number | undefined): SteppedKeysetSource<Signal, FeedKey> {
  return {
    olderSteps: (after, limit) => cache.feed.olderSteps(after, limit, atMs),
    newerSteps: (before, limit) => cache.feed.newerSteps(before, limit, atMs),
    keyOf: (s) => ({ at: s.at, rank: s.rank, key: s.key }),
    compare: compareFeed,
  };
}
