import { useCallback, useSyncExternalStore } from 'react';
import { useDeps } from '../state/monitor-context.js';

/**
 * A number that changes (at most once per coalescing window) when one of `tables` changed in the cache: the
 * dependency a pane's reads are memoised on. Table names as in cache change events; `historical/*` for all.
 */
export function useCacheVersion(...tables: string[]): number {
  const { hub } = useDeps();
  const key = tables.join('\n');
  const snapshot = useCallback(() => hub.version(key.split('\n')), [hub, key]);
  return useSyncExternalStore(hub.subscribe, snapshot);
}
