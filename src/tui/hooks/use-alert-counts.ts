import { useCallback } from 'react';
import type { Cache } from '../../cache/index.js';
import { TRADER_ALERT_KINDS } from '../../contract/alert-kinds.js';
import { useReplayInstant } from '../state/replay-context.js';
import { useCacheQuery } from './use-cache-query.js';

/**
 * Unacknowledged alerts and, among them, kills: the tab bar and the Alerts pane show both. Time travel: as they
 * stood at its instant, without the trader alerts it works out again (the Alerts pane lists those apart).
 */
export function useAlertCounts() {
  const { atMs } = useReplayInstant();
  const read = useCallback(
    (cache: Cache) => (atMs === undefined ? cache.alerts.counts() : cache.alerts.counts(atMs, TRADER_ALERT_KINDS)),
    [atMs],
  );
  return useCacheQuery(['alerts'], read);
}
