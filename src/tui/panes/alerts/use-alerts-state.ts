import { useCallback, useMemo, useRef, useSyncExternalStore } from 'react';
import { liveConditions } from '../../../alerts/live-conditions.js';
import type { AlertRow, RejectedDelivery } from '../../../cache/index.js';
import { TRADER_ALERT_KINDS } from '../../../contract/alert-kinds.js';
import { useAlertCounts } from '../../hooks/use-alert-counts.js';
import { type KeysetWindow, useKeysetWindow } from '../../hooks/use-keyset-window.js';
import { useMonitorStatus } from '../../hooks/use-monitor-status.js';
import { useNow } from '../../hooks/use-now.js';
import { useCacheChanges, useReread } from '../../hooks/use-reread.js';
import { useStreamHealth } from '../../hooks/use-stream-health.js';
import { useDeps, useUiActions } from '../../state/monitor-context.js';
import { useReplayInstant } from '../../state/replay-context.js';
import { ReplayTraderAlerts } from '../../state/replay-trader-alerts.js';
import { usePaneStore } from '../pane-stores.js';
import { type AlertItem, alertSource, liveItems, ruleItem, WORKING_OUT } from './alert-items.js';

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

/** Time travel's trader alerts: the rules' steps run, kept between visits. */
export const alertsStore = () => new ReplayTraderAlerts();

export function useAlertsState(listHeight: number): AlertsState {
  const { cache, now, edgeMin, settlement } = useDeps();
  const actions = useUiActions();
  const status = useMonitorStatus();
  const nowMs = useNow();
  const health = useStreamHealth(nowMs);
  // time travel: the stored alerts as they stood then, and the trader alerts the rules raise by then in place of the
  // stored ones; no live condition (they are of now)
  const { atMs, date } = useReplayInstant();
  // the steps the rules ran are kept in the pane's store between visits
  const traderAlerts = usePaneStore(alertsStore);
  // worked out in slices in the background: the last result (and `working out…`) until the instant's is in
  const worked = useSyncExternalStore(traderAlerts.subscribe, traderAlerts.getSnapshot);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `worked` is the store's new result, read through `at`
  const rules = useMemo(() => {
    if (atMs === undefined || date === undefined) return [];
    const found = traderAlerts.at(cache, cache.resources.cities(), { atMs, date }, edgeMin, settlement).map(ruleItem);
    return traderAlerts.working() ? [WORKING_OUT, ...found] : found;
  }, [cache, traderAlerts, atMs, date, edgeMin, settlement, worked]);
  const live = atMs === undefined ? liveItems(liveConditions(status, health)) : { connection: [], sync: [], rules };
  // the source stays the same object while the instant does (a new one would send the window back to the top); it
  // reads the latest conditions through a ref, and their text joins the version so a change re-reads the window
  const liveRef = useRef(live);
  liveRef.current = live;
  const source = useMemo(
    () =>
      alertSource(cache, () => liveRef.current, atMs === undefined ? undefined : { atMs, except: TRADER_ALERT_KINDS }),
    [cache, atMs],
  );
  const liveSignature = [...live.connection, ...live.sync, ...live.rules]
    .map((c) => `${c.marker}${c.when}${c.message}`)
    .join('|');
  // the window's change counter: the stored alerts' and the conditions' text (a render with other conditions reads
  // the window again)
  const changes = useCacheChanges(['alerts'], liveSignature);
  // replaying: the trader alerts the rules raised by then were unacknowledged then; they count with the stored ones
  const stored = useAlertCounts();
  const counts = useMemo(
    () => ({ unacknowledged: stored.unacknowledged + rules.length, kills: stored.kills }),
    [stored, rules.length],
  );
  const list = useKeysetWindow(source, listHeight, changes);
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
    changes,
    useCallback(() => cache.alerts.newestId(), [cache]),
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
