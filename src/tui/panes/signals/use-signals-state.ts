import { useCallback } from 'react';
import type { FeedKey, Signal, SignalPayload } from '../../../cache/index.js';
import { type KeysetWindow, useKeysetWindow } from '../../hooks/use-keyset-window.js';
import { useAfterChange, useCacheChanges } from '../../hooks/use-reread.js';
import { useDeps } from '../../state/monitor-context.js';
import { useReplayInstant } from '../../state/replay-context.js';
import { usePaneStores } from '../pane-stores.js';

export interface SignalsState {
  /** The signals shown, newest first, a window `listHeight` rows tall. */
  list: KeysetWindow<Signal, FeedKey>;
  /** What arrived for one signal, byte for byte: read when its detail opens. */
  payloads(signal: Signal): SignalPayload[];
}

export function useSignalsState(listHeight: number): SignalsState {
  const { cache } = useDeps();
  const store = usePaneStores().signals;
  // time travel: the signals as they had come by its instant; live, the feed's stretch kept around the window
  const instant = useReplayInstant();
  const { atMs } = instant;
  const strip = store.scope(instant);
  // the window reads the strip again when what it kept was read again (a refresh in, a stretch replaced): the strip's
  // own change counter
  const list = useKeysetWindow(strip, listHeight, strip);
  // after the commit: the feed changed (read again in the background), and the next pages either side of the window
  const { above } = list;
  const refresh = useCallback(() => {
    strip.refresh();
    strip.prefetch(above, listHeight, listHeight);
  }, [strip, above, listHeight]);
  useAfterChange(useCacheChanges(store.topics), refresh);
  const payloads = useCallback((s: Signal) => cache.feed.payloads(s, atMs), [cache, atMs]);
  return { list, payloads };
}
