import { useCallback } from 'react';
import type { Cache, CacheTopic } from '../../cache/index.js';
import { useDeps } from '../state/monitor-context.js';
import { useCacheChanges, useReread } from './use-reread.js';

/**
 * `read(cache)`, run again when one of `topics` changed (at most once per coalescing window) or when `read` is a
 * new function: keep it stable, a module-level function or a useCallback over what it uses.
 */
export function useCacheQuery<T>(topics: readonly CacheTopic[], read: (cache: Cache) => T): T {
  const { cache } = useDeps();
  const bound = useCallback(() => read(cache), [cache, read]);
  return useReread(useCacheChanges(topics), bound);
}
