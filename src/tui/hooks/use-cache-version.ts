import { useCallback, useSyncExternalStore } from 'react';
import type { CacheTopic } from '../../cache/index.js';
import { useDeps } from '../state/monitor-context.js';

/**
 * A number that changes (at most once per coalescing window) when one of `topics` changed in the cache: what a
 * keyset window re-reads on. A plain read of the cache is simpler with useCacheQuery.
 */
export function useCacheVersion(topics: readonly CacheTopic[]): number {
  const { hub } = useDeps();
  const key = topics.join('\n');
  const snapshot = useCallback(() => hub.version(key.split('\n')), [hub, key]);
  return useSyncExternalStore(hub.subscribe, snapshot);
}
