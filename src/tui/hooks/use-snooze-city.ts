import { useCallback } from 'react';
import { cityNames } from '../../domain/city-names.js';
import { useDeps, useUiActions } from '../state/monitor-context.js';

/**
 * `z`: snoozes a city's notifications for `alerts.snooze_minutes` (its alerts are still stored and listed). The
 * snooze is kept in the cache, so a sync daemon writing to the same file honours it too. It ends on the market's
 * clock (DESIGN 4 "the monitor's clock"), the one its alerts are stamped with. The Alerts pane's `z` calls it, and so
 * can any pane showing a city (the board's rows).
 */
export function useSnoozeCity(): (cityId: string | null) => void {
  const { cache, snoozeMinutes, now } = useDeps();
  const actions = useUiActions();
  return useCallback(
    (cityId: string | null) => {
      if (!cityId) {
        actions.notice('no city to snooze');
        return;
      }
      try {
        cache.alerts.snoozeCity(cityId, now().getTime() + snoozeMinutes * 60_000);
        actions.notice(`${cityNames(cache.resources.cities())(cityId)} snoozed ${snoozeMinutes} min (no notification)`);
      } catch (error) {
        // offline review may run on a cache this user cannot write
        if (!String((error as { code?: unknown }).code).startsWith('SQLITE_READONLY')) throw error;
        actions.notice('not snoozed: the cache is read-only here');
      }
    },
    [cache, snoozeMinutes, actions, now],
  );
}
