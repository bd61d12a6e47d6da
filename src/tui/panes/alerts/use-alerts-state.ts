import { useCallback, useMemo, useSyncExternalStore } from 'react';
import { liveConditions } from '../../../alerts/live-conditions.js';
import type { AlertRow, RejectedDelivery } from '../../../cache/index.js';
import { useAlertCounts } from '../../hooks/use-alert-counts.js';
import type { KeysetWindow } from '../../hooks/use-keyset-window.js';
import { useMonitorStatus } from '../../hooks/use-monitor-status.js';
import { useNow } from '../../hooks/use-now.js';
import { useReread } from '../../hooks/use-reread.js';
import { useStreamHealth } from '../../hooks/use-stream-health.js';
import { useStripWindow } from '../../hooks/use-strip-window.js';
import { useDeps, useUiActions } from '../../state/monitor-context.js';
import { useReplayInstant } from '../../state/replay-context.js';
import { usePaneStore } from '../pane-stores.js';
import { type AlertItem, liveItems, ruleItem, WORKING_OUT } from './alert-items.js';
import { alertsStore } from './alerts-store.js';

export interface AlertsState {
  /** Stored alerts and live conditions in the pane's order, a window `listHeight` rows tall. */
  list: KeysetWindow<AlertItem>;
  counts: ReturnType<typeof useAlertCounts>;
  /** Marks a stored alert acknowledged, now. */
  acknowledge(alertId: number): void;
  /** `A`: marks every alert shown acknowledged, now (none raised since the pane last read them), and says how many. */
  acknowledgeAll(): void;
  /** The kept deliveries behind a webhook-rejected alert (none for any other alert). */
  rejectedDeliveries(alert: AlertRow): RejectedDelivery[];
}

export function useAlertsState(listHeight: number): AlertsState {
  const { cache, now, edgeMin, settlement } = useDeps();
  const actions = useUiActions();
  const status = useMonitorStatus();
  const nowMs = useNow();
  const health = useStreamHealth(nowMs);
  // time travel: the stored alerts as they stood then, and the trader alerts the rules raise by then in place of the
  // stored ones; no live condition (they are of now)
  const instant = useReplayInstant();
  const { atMs, date } = instant;
  // the list's stretch and the steps the rules ran are kept in the pane's store between visits
  const store = usePaneStore(alertsStore);
  const { traderAlerts } = store;
  // worked out in slices in the background: the last result (and `working out…`) until the instant's is in
  const worked = useSyncExternalStore(traderAlerts.subscribe, traderAlerts.getSnapshot);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `worked` is the store's new result, read through `at`
  const rules = useMemo(() => {
    if (atMs === undefined || date === undefined) return [];
    const found = traderAlerts.at(cache, cache.resources.cities(), { atMs, date }, edgeMin, settlement).map(ruleItem);
    return traderAlerts.working() ? [WORKING_OUT, ...found] : found;
  }, [cache, traderAlerts, atMs, date, edgeMin, settlement, worked]);
  const live = atMs === undefined ? liveItems(liveConditions(status, health)) : { connection: [], sync: [], rules };
  // the list's stretch of the instant, kept in the pane's store: read again when the alerts' table or the conditions'
  // text change, and the same stretch while they do not (a new one would send the window back to the top)
  const strip = store.scope(instant, live);
  // replaying: the trader alerts the rules raised by then were unacknowledged then; they count with the stored ones
  const stored = useAlertCounts();
  const counts = useMemo(
    () => ({ unacknowledged: stored.unacknowledged + rules.length, kills: stored.kills }),
    [stored, rules.length],
  );
  const list = useStripWindow(strip, listHeight);
  // offline review may run on a cache this user cannot write: that is a notice, not the end of the monitor
  const acknowledge = useCallback(
    (id: number) => {
      try {
        cache.alerts.acknowledge(id, now().toISOString());
      } catch (error) {
        if (!String((error as { code?: unknown }).code).startsWith('SQLITE_READONLY')) throw error;
        actions.notice('not acknowledged: the cache is read-only here');
      }
    },
    [cache, now, actions],
  );
  // the newest alert the pane has read: `A` leaves one raised after it (not drawn yet) unacknowledged
  const newestId = useReread(
    strip,
    useCallback(() => store.newestId(), [store]),
  );
  const acknowledgeAll = useCallback(() => {
    try {
      const n = cache.alerts.acknowledgeAll(now().toISOString(), newestId);
      actions.notice(n === 0 ? 'nothing to acknowledge' : `${n} alert${n === 1 ? '' : 's'} acknowledged`);
    } catch (error) {
      if (!String((error as { code?: unknown }).code).startsWith('SQLITE_READONLY')) throw error;
      actions.notice('not acknowledged: the cache is read-only here');
    }
  }, [cache, now, actions, newestId]);
  const rejectedDeliveries = useCallback((alert: AlertRow) => cache.alerts.rejectedDeliveries(alert), [cache]);
  return { list, counts, acknowledge, acknowledgeAll, rejectedDeliveries };
}
