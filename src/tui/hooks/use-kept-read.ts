import { useCallback, useRef, useSyncExternalStore } from 'react';
import type { KeptAsk, KeptRead } from '../state/kept-read.js';
import { useDeps } from '../state/monitor-context.js';
import { useAfterChange, useCacheChanges } from './use-reread.js';

/**
 * A kept read's result for `ask` (state/kept-read.ts): drawn from memory when it was read before, so the key that
 * shows a pane is one commit; read again in the background when its tables changed or its stamp moved, the pane
 * drawn again once the new result is in.
 */
export function useKeptRead<P, T>(model: KeptRead<P, T>, ask: KeptAsk<P>): T {
  const { cache } = useDeps();
  useSyncExternalStore(model.subscribe, model.snapshot);
  const value = model.get(cache, ask);
  // an ask's params go with its key and stamp: a new key or stamp is a new read, new params of the same are not
  const params = useRef(ask.params);
  params.current = ask.params;
  const { key, stamp } = ask;
  const refresh = useCallback(
    () => model.refresh(cache, { key, stamp, params: params.current }),
    [model, cache, key, stamp],
  );
  // after the commit: a read that is due runs between keys, never in one
  useAfterChange(useCacheChanges(model.topics), refresh);
  return value;
}
