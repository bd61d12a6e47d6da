import { useCallback } from 'react';
import { type Cache, FEED_READ_TOPICS, type FeedKey, type Signal, type SignalPayload } from '../../../cache/index.js';
import type { KeysetWindow } from '../../hooks/use-keyset-window.js';
import { useStripWindow } from '../../hooks/use-strip-window.js';
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
  const list = useStripWindow(strip, listHeight);
  const payloads = useCallback((s: Signal) => cache.feed.payloads(s, atMs), [cache, atMs]);
  return { list, payloads };
}
