import { useCallback, useMemo } from 'react';
import type { FeedKey, Signal, SignalPayload } from '../../../cache/index.js';
import { useCacheVersion } from '../../hooks/use-cache-version.js';
import { type KeysetSource, type KeysetWindow, useKeysetWindow } from '../../hooks/use-keyset-window.js';
import type { CacheTopic } from '../../state/cache-topics.js';
import { useDeps } from '../../state/monitor-context.js';

/** Everything the feed is built from: a change to any of them can add or change a signal. */
const FEED_TOPICS: readonly CacheTopic[] = [
  'insurance-picks',
  'edge-trades',
  'webhook-events',
  'fusion-locks',
  'no24',
  'yescore',
  'svc-max-picks',
  'cities',
];

export interface SignalsState {
  /** The signals shown, newest first, a window `listHeight` rows tall. */
  list: KeysetWindow<Signal>;
  /** What arrived for one signal, byte for byte: read when its detail opens. */
  payloads(signal: Signal): SignalPayload[];
}

export function useSignalsState(listHeight: number): SignalsState {
  const { cache } = useDeps();
  const version = useCacheVersion(FEED_TOPICS);
  const source = useMemo<KeysetSource<Signal, FeedKey>>(
    () => ({
      older: (after, limit) => cache.feed.older(after, limit),
      newer: (before, limit) => cache.feed.newer(before, limit),
      keyOf: (s) => ({ at: s.at, rank: s.rank, key: s.key }),
    }),
    [cache],
  );
  const list = useKeysetWindow(source, listHeight, version);
  const payloads = useCallback((s: Signal) => cache.feed.payloads(s), [cache]);
  return { list, payloads };
}
