import { useCallback, useEffect, useSyncExternalStore } from 'react';
import type { Cache } from '../../../cache/index.js';
import { compareFeed, type FeedKey, type Signal, type SignalPayload } from '../../../cache/index.js';
import { useCacheVersion } from '../../hooks/use-cache-version.js';
import { type KeysetWindow, useKeysetWindow } from '../../hooks/use-keyset-window.js';
import type { CacheTopic } from '../../state/cache-topics.js';
import type { ChangeHub } from '../../state/change-hub.js';
import { KeysetStrip } from '../../state/keyset-strip.js';
import { useDeps } from '../../state/monitor-context.js';

/** Everything the feed is built from: a change to any of them can add or change a signal. */
export const FEED_TOPICS: readonly CacheTopic[] = [
  'insurance-picks',
  'edge-trades',
  'webhook-events',
  'fusion-locks',
  'no24',
  'yescore',
  'svc-max-picks',
  'cities',
];

/**
 * The stretch of the feed each running monitor (its change hub) keeps in memory around the window shown: coming back
 * to the pane, a move or a page reads nothing once it is prefetched (state/keyset-strip.ts).
 */
const strips = new WeakMap<ChangeHub, KeysetStrip<Signal, FeedKey>>();

export function feedStrip(hub: ChangeHub, cache: Cache): KeysetStrip<Signal, FeedKey> {
  let strip = strips.get(hub);
  if (!strip) {
    const made = new KeysetStrip<Signal, FeedKey>({
      olderSteps: (after, limit) => cache.feed.olderSteps(after, limit),
      newerSteps: (before, limit) => cache.feed.newerSteps(before, limit),
      keyOf: (s) => ({ at: s.at, rank: s.rank, key: s.key }),
      compare: compareFeed,
    });
    strip = made;
    strips.set(hub, made);
    hub.onStop(() => made.stop());
  }
  return strip;
}

export interface SignalsState {
  /** The signals shown, newest first, a window `listHeight` rows tall. */
  list: KeysetWindow<Signal, FeedKey>;
  /** What arrived for one signal, byte for byte: read when its detail opens. */
  payloads(signal: Signal): SignalPayload[];
}

export function useSignalsState(listHeight: number): SignalsState {
  const { cache, hub } = useDeps();
  const version = useCacheVersion(FEED_TOPICS);
  const strip = feedStrip(hub, cache);
  strip.observe(version);
  // the window reads the strip again when what it kept was read again (a refresh in, a stretch replaced)
  const generation = useSyncExternalStore(strip.subscribe, strip.snapshot);
  const list = useKeysetWindow(strip, listHeight, generation);
  // after the commit: the feed changed (read again in the background), and the next pages either side of the window
  // biome-ignore lint/correctness/useExhaustiveDependencies: version is the feed's change counter: a new one refreshes
  useEffect(() => {
    strip.refresh();
    strip.prefetch(list.above, listHeight, listHeight);
  }, [strip, version, list.above, listHeight]);
  const payloads = useCallback((s: Signal) => cache.feed.payloads(s), [cache]);
  return { list, payloads };
}
