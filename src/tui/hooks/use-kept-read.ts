import { useEffect, useSyncExternalStore } from 'react';
import type { KeptAsk, KeptRead } from '../state/kept-read.js';
import { useDeps } from '../state/monitor-context.js';
import { useCacheVersion } from './use-cache-version.js';

/**
 * A kept read's result for `ask` (state/kept-read.ts): drawn from memory when it was read before, so the key that
 * shows a pane is one commit; read again in the background when its tables changed or its stamp moved, the pane
 * drawn again once the new result is in.
 */
export function useKeptRead<P, T>(model: KeptRead<P, T>, ask: KeptAsk<P>): T {
  const { cache } = useDeps();
  const version = useCacheVersion(model.topics);
  useSyncExternalStore(model.subscribe, model.snapshot);
  const value = model.get(cache, ask);
  // after the commit: a read that is due runs between keys, never in one
  // biome-ignore lint/correctness/useExhaustiveDependencies: ask.params go with ask.key and ask.stamp; version is the cache's change counter
  useEffect(() => {
    model.refresh(cache, ask);
  }, [model, cache, ask.key, ask.stamp, version]);
  return value;
}
