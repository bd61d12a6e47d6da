import { useEffect, useRef, useSyncExternalStore } from 'react';
import { useDeps } from '../state/monitor-context.js';
import type { PaneInputs, PaneStore } from '../state/pane-store.js';

/**
 * What a pane's store holds for `inputs` (state/pane-store.ts), in the scope of their instant: drawn from memory when
 * it was read before, so the key that shows a pane is one commit; read again in the background when its tables
 * changed (the scope listens to the change hub while the pane is mounted) or its stamp moved, the pane drawn again
 * once the new result is in.
 */
export function usePaneRead<P, T, I extends PaneInputs>(store: PaneStore<P, T, I>, inputs: I): T {
  const { cache } = useDeps();
  const scope = store.scope(inputs.instant);
  const ask = store.ask(inputs);
  useSyncExternalStore(scope.subscribe, scope.getSnapshot);
  const value = scope.get(cache, ask);
  // an ask's params go with its key and stamp: a new key or stamp is a new read, new params of the same are not
  const params = useRef(ask.params);
  params.current = ask.params;
  const { key, stamp } = ask;
  // after the commit: a read that is due runs between keys, never in one
  useEffect(() => scope.want(cache, { key, stamp, params: params.current }), [scope, cache, key, stamp]);
  return value;
}
