import { useCallback, useMemo } from 'react';
import type { FeedKey, Signal, SignalPayload } from '../../../cache/index.js';
import { useCacheVersion } from '../../hooks/use-cache-version.js';
import { type KeysetSource, type KeysetWindow, useKeysetWindow } from '../../hooks/use-keyset-window.js';
import type { CacheTopic } from '../../state/cache-topics.js';
import type { ChangeHub } from '../../state/change-hub.js';
import { useDeps } from '../../state/monitor-context.js';
import { useReplayInstant } from '../../state/replay-context.js';

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

/** Reads of the feed kept: a few windows back and forth. */
const KEPT_READS = 16;

/**
 * The feed's reads kept per running monitor (its change hub) while nothing in the feed changed: coming back to the
 * pane, or paging back to a window read before, reads nothing. A change drops them all.
 */
const kept = new WeakMap<ChangeHub, { version: number; reads: Map<string, Signal[]> }>();

function keptRead(hub: ChangeHub, key: string, read: () => Signal[]): Signal[] {
  const version = hub.version(FEED_TOPICS);
  let entry = kept.get(hub);
  if (!entry || entry.version !== version) {
    entry = { version, reads: new Map() };
    kept.set(hub, entry);
  }
  let rows = entry.reads.get(key);
  if (!rows) {
    rows = read();
    if (entry.reads.size >= KEPT_READS) entry.reads.delete(entry.reads.keys().next().value as string);
    entry.reads.set(key, rows);
  }
  return rows;
}

export interface SignalsState {
  /** The signals shown, newest first, a window `listHeight` rows tall. */
  list: KeysetWindow<Signal>;
  /** What arrived for one signal, byte for byte: read when its detail opens. */
  payloads(signal: Signal): SignalPayload[];
}

export function useSignalsState(listHeight: number): SignalsState {
  const { cache, hub } = useDeps();
  const version = useCacheVersion(FEED_TOPICS);
  // time travel: the signals as they had come by its instant (a new instant is a new list, from its newest)
  const { atMs } = useReplayInstant();
  const source = useMemo<KeysetSource<Signal, FeedKey>>(
    () => ({
      older: (after, limit) =>
        keptRead(hub, `older ${JSON.stringify(after)} ${limit} ${atMs}`, () => cache.feed.older(after, limit, atMs)),
      newer: (before, limit) =>
        keptRead(hub, `newer ${JSON.stringify(before)} ${limit} ${atMs}`, () => cache.feed.newer(before, limit, atMs)),
      keyOf: (s) => ({ at: s.at, rank: s.rank, key: s.key }),
    }),
    [cache, hub, atMs],
  );
  const list = useKeysetWindow(source, listHeight, version);
  const payloads = useCallback((s: Signal) => cache.feed.payloads(s, atMs), [cache, atMs]);
  return { list, payloads };
}
