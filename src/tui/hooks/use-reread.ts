import { useCallback, useMemo, useRef, useSyncExternalStore } from 'react';
import type { CacheTopic } from '../../cache/index.js';
import { useDeps } from '../state/monitor-context.js';
import type { ReadStore } from '../state/pane-store.js';

/**
 * One idea, said here once: a pane's read of an outside store is read again when the store's change counter moves.
 * The counter is subscribed to with useSyncExternalStore, as React intends for an outside store, and `read` runs
 * inside its snapshot, again only when the counter moved or `read` is a new function (keep it stable: a useCallback
 * over what it reads), so a render that changed nothing reads nothing.
 */
export function useReread<T>(changes: ReadStore, read: () => T): T {
  const kept = useRef<{ count: unknown; read: () => T; value: T } | null>(null);
  const snapshot = useCallback(() => {
    const count = changes.getSnapshot();
    const last = kept.current;
    if (last && Object.is(last.count, count) && last.read === read) return last.value;
    const value = read();
    // the counter as the read left it: a read may move its own store's counter (a keyset strip that had to read the
    // stretch asked for), and keeping the count from before would read again at React's second look at the snapshot
    kept.current = { count: changes.getSnapshot(), read, value };
    return value;
  }, [changes, read]);
  return useSyncExternalStore(changes.subscribe, snapshot);
}

/**
 * The cache's change counter for `topics` (the change hub's, coalesced) as a store for `useReread`; `stamp`
 * moves it too: what else a read depends on (the minute a snooze runs out by, the live conditions' text).
 */
export function useCacheChanges(topics: readonly CacheTopic[], stamp = ''): ReadStore {
  const { hub } = useDeps();
  const key = topics.join('\n');
  return useMemo(() => {
    const list = key.split('\n') as CacheTopic[];
    return { subscribe: hub.subscribe, getSnapshot: () => `${hub.version(list)}|${stamp}` };
  }, [hub, key, stamp]);
}
