import { useCallback, useEffect } from 'react';
import { type Cache, FEED_READ_TOPICS, type FeedKey, type Signal, type SignalPayload } from '../../../cache/index.js';
import { type KeysetWindow, useKeysetWindow } from '../../hooks/use-keyset-window.js';
import type { ChangeHub } from '../../state/change-hub.js';
import { KeysetStore } from '../../state/keyset-store.js';
import { useDeps } from '../../state/monitor-context.js';
import { useReplayInstant } from '../../state/replay-context.js';
import { usePaneStore } from '../pane-stores.js';
import { feedAt } from './feed-list.js';

export interface SignalsState {
  /** The signals shown, newest first, a window `listHeight` rows tall. */
  list: KeysetWindow<Signal, FeedKey>;
  /** What arrived for one signal, byte for byte: read when its detail opens. */
  payloads(signal: Signal): SignalPayload[];
}

/** The feed's stretch kept around the window (state/keyset-store.ts), live and at time travel's instant. */
export const signalsStore = (hub: ChangeHub, cache: Cache) =>
  new KeysetStore(hub, FEED_READ_TOPICS, (atMs) => feedAt(cache, atMs));

export function useSignalsState(listHeight: number): SignalsState {
  const { cache } = useDeps();
  const store = usePaneStore(signalsStore);
  // time travel: the signals as they had come by its instant; live, the feed's stretch kept around the window
  const instant = useReplayInstant();
  const { atMs } = instant;
  const strip = store.scope(instant);
  // the window reads the strip again when what it kept was read again (a refresh in, a stretch replaced): the strip is
  // its store, and while it is watched it reads its rows again in the background when the feed changes
  const list = useKeysetWindow(strip, listHeight, strip);
  // after the commit: the feed changed while the pane was away (read again in the background), and the next pages
  // either side of the window
  const { above } = list;
  useEffect(() => {
    strip.refresh();
    strip.prefetch(above, listHeight, listHeight);
  }, [strip, above, listHeight]);
  const payloads = useCallback((s: Signal) => cache.feed.payloads(s, atMs), [cache, atMs]);
  return { list, payloads };
}
