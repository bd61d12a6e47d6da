import { useCallback } from 'react';
import { cityNames } from '../../domain/city-names.js';
import { localClock } from '../format/time.js';
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
        const untilMs = now().getTime() + snoozeMinutes * 60_000;
        cache.alerts.snoozeCity(cityId, untilMs);
        // said as the end on the city's clock: the market's minutes, which a reference service at --speed runs faster
        const cities = cache.resources.cities();
        const zone = cities.find((c) => c.city_id === cityId)?.tz ?? null;
        const until = zone ? `${localClock(untilMs, zone)} local` : `${localClock(untilMs, null)}Z`;
        actions.notice(`${cityNames(cities)(cityId)} snoozed until ${until} (no notification)`);
      } catch (error) {
        // offline review may run on a cache this user cannot write
        if (!String((error as { code?: unknown }).code).startsWith('SQLITE_READONLY')) throw error;
        actions.notice('not snoozed: the cache is read-only here');
      }
    },
    [cache, snoozeMinutes, actions, now],
  );
}
