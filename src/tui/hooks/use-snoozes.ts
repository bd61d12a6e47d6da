import { useCallback } from 'react';
import type { CitySnooze } from '../../cache/index.js';
import { useDeps } from '../state/monitor-context.js';
import { useNow } from './use-now.js';
import { useCacheChanges, useReread } from './use-reread.js';

/**
 * The cities snoozed now and the minutes each has left (rounded up), on the market's clock. Re-read when a snooze is
 * written and once a minute, so one that ran out leaves the list.
 */
export function useSnoozes(): { city_id: string; minutesLeft: number; untilMs: number }[] {
  const { cache, now } = useDeps();
  // re-renders each tick; the read itself runs again only when the alerts changed or the minute turned
  useNow();
  const changes = useCacheChanges(['alerts'], String(Math.floor(now().getTime() / 60_000)));
  const read = useCallback((): CitySnooze[] => cache.alerts.snoozed(now().getTime()), [cache, now]);
  const nowMs = now().getTime();
  return useReread(changes, read)
    .filter((s) => s.until_ms > nowMs)
    .map((s) => ({ city_id: s.city_id, minutesLeft: Math.ceil((s.until_ms - nowMs) / 60_000), untilMs: s.until_ms }));
}
