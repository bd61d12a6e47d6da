import type { Cache } from '../../cache/index.js';
import { useCacheQuery } from './use-cache-query.js';

// whether it stands refusing does not depend on the instant asked at (only the hour's count does)
const readRefusing = (cache: Cache) => cache.inbox.listenerHealth(new Date().toISOString()).refusing;

/**
 * Whether a webhook listener stands refusing (DESIGN 4): its alert raised and no delivery verified since. Read from
 * the cache, so the listener of this monitor and a `listen` in another process alike: raising the alert and a
 * verified delivery are commits the screen hears of (its own session's tables, or another process's commit).
 */
export function useListenerRefusing(): boolean {
  return useCacheQuery(['alerts', 'webhook-events'], readRefusing);
}
