import type { Cache } from '../../cache/index.js';
import { useCacheQuery } from './use-cache-query.js';

const readAlertCounts = (cache: Cache) => cache.alerts.counts();

/** Unacknowledged alerts and, among them, kills: the tab bar and the Alerts pane show both. */
export const useAlertCounts = () => useCacheQuery(['alerts'], readAlertCounts);
