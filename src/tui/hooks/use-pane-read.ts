import { useEffect, useSyncExternalStore } from 'react';
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
  // after every commit (a read that is due runs between keys, never in one), with this render's params: the scope
  // re-renders the pane when its tables change, and a read with params of an earlier render (its now, the versions its
  // memo is keyed by) would be stored as current (`want` reads nothing while the result is current)
  useEffect(() => scope.want(cache, ask));
  return value;
}
