import { useCallback, useRef, useSyncExternalStore } from 'react';
import { useDeps } from '../state/monitor-context.js';
import type { PaneInputs, PaneStore } from '../state/pane-store.js';
import { useAfterChange, useCacheChanges } from './use-reread.js';

/**
 * What a pane's store holds for `inputs` (state/pane-store.ts), in the scope of their instant: drawn from memory when
 * it was read before, so the key that shows a pane is one commit; read again in the background when its tables
 * changed or its stamp moved, the pane drawn again once the new result is in.
 */
export function usePaneRead<P, T, I extends PaneInputs>(store: PaneStore<P, T, I>, inputs: I): T {
  const { cache } = useDeps();
  const read = store.scope(inputs.instant);
  const ask = store.ask(inputs);
  useSyncExternalStore(read.subscribe, read.snapshot);
  const value = read.get(cache, ask);
  // an ask's params go with its key and stamp: a new key or stamp is a new read, new params of the same are not
  const params = useRef(ask.params);
  params.current = ask.params;
  const { key, stamp } = ask;
  const refresh = useCallback(
    () => read.refresh(cache, { key, stamp, params: params.current }),
    [read, cache, key, stamp],
  );
  // after the commit: a read that is due runs between keys, never in one
  useAfterChange(useCacheChanges(store.topics), refresh);
  return value;
}
