import { useCallback } from 'react';
import type { Cache, CitySnooze } from '../../cache/index.js';
import { useDeps } from '../state/monitor-context.js';
import { useCacheQuery } from './use-cache-query.js';
import { useNow } from './use-now.js';

/**
 * The cities snoozed now and the minutes each has left (rounded up), on the market's clock. Re-read when a snooze is
 * written and once a minute, so one that ran out leaves the list.
 */
export function useSnoozes(): { city_id: string; minutesLeft: number }[] {
  // re-renders each tick; the read itself runs again only when the minute turns
  const nowMs = useNow();
  const { now } = useDeps();
  const minute = Math.floor(nowMs / 60_000);
  // biome-ignore lint/correctness/useExhaustiveDependencies: minute is not read but re-reads the list, for expiries
  const read = useCallback((cache: Cache): CitySnooze[] => cache.alerts.snoozed(now().getTime()), [minute, now]);
  return useCacheQuery(['alerts'], read)
    .filter((s) => s.until_ms > nowMs)
    .map((s) => ({ city_id: s.city_id, minutesLeft: Math.ceil((s.until_ms - nowMs) / 60_000) }));
}
