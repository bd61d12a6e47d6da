import { useCallback } from 'react';
import type { Cache } from '../../../cache/index.js';
import { compareFeed, FEED_READ_TOPICS, type FeedKey, type Signal, type SignalPayload } from '../../../cache/index.js';
import { useCacheVersion } from '../../hooks/use-cache-version.js';
import { type KeysetWindow, useKeysetWindow } from '../../hooks/use-keyset-window.js';
import { useAfterChange, useCacheChanges } from '../../hooks/use-reread.js';
import type { ChangeHub } from '../../state/change-hub.js';
import { KeysetStrip } from '../../state/keyset-strip.js';
import { useDeps } from '../../state/monitor-context.js';
import { useReplayInstant } from '../../state/replay-context.js';

/**
 * The stretches of the feed each running monitor (its change hub) keeps in memory around the window shown: coming
 * back to the pane, a move or a page reads nothing once it is prefetched (state/keyset-strip.ts). The live feed's,
 * and while replaying the feed as it had come by time travel's instant (a new instant is a new list, from its newest;
 * the live one stays for Esc).
 */
interface Strips {
  live: KeysetStrip<Signal, FeedKey>;
  replay?: { atMs: number; strip: KeysetStrip<Signal, FeedKey> };
}

const strips = new WeakMap<ChangeHub, Strips>();

function newStrip(cache: Cache, atMs: number | undefined): KeysetStrip<Signal, FeedKey> {
  return new KeysetStrip<Signal, FeedKey>({
    olderSteps: (after, limit) => cache.feed.olderSteps(after, limit, atMs),
    newerSteps: (before, limit) => cache.feed.newerSteps(before, limit, atMs),
    keyOf: (s) => ({ at: s.at, rank: s.rank, key: s.key }),
    compare: compareFeed,
  });
}

/** The feed's kept stretch for time travel's instant (`atMs`; undefined: live). */
export function feedStrip(hub: ChangeHub, cache: Cache, atMs?: number): KeysetStrip<Signal, FeedKey> {
  let kept = strips.get(hub);
  if (!kept) {
    const made: Strips = { live: newStrip(cache, undefined) };
    kept = made;
    strips.set(hub, made);
    hub.onStop(() => {
      made.live.stop();
      made.replay?.strip.stop();
    });
  }
  if (atMs === undefined) return kept.live;
  if (kept.replay?.atMs !== atMs) {
    kept.replay?.strip.stop();
    kept.replay = { atMs, strip: newStrip(cache, atMs) };
  }
  return kept.replay.strip;
}

export interface SignalsState {
  /** The signals shown, newest first, a window `listHeight` rows tall. */
  list: KeysetWindow<Signal, FeedKey>;
  /** What arrived for one signal, byte for byte: read when its detail opens. */
  payloads(signal: Signal): SignalPayload[];
}

export function useSignalsState(listHeight: number): SignalsState {
  const { cache, hub } = useDeps();
  const version = useCacheVersion(FEED_READ_TOPICS);
  // time travel: the signals as they had come by its instant
  const { atMs } = useReplayInstant();
  const strip = feedStrip(hub, cache, atMs);
  strip.observe(version);
  // the window reads the strip again when what it kept was read again (a refresh in, a stretch replaced): the strip's
  // own change counter
  const list = useKeysetWindow(strip, listHeight, strip);
  // after the commit: the feed changed (read again in the background), and the next pages either side of the window
  const { above } = list;
  const refresh = useCallback(() => {
    strip.refresh();
    strip.prefetch(above, listHeight, listHeight);
  }, [strip, above, listHeight]);
  useAfterChange(useCacheChanges(FEED_READ_TOPICS), refresh);
  const payloads = useCallback((s: Signal) => cache.feed.payloads(s, atMs), [cache, atMs]);
  return { list, payloads };
}
