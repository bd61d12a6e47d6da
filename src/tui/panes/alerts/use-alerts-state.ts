import { useCallback, useMemo, useRef } from 'react';
import { liveConditions } from '../../../alerts/live-conditions.js';
import type { AlertRow, RejectedDelivery } from '../../../cache/index.js';
import { useAlertCounts } from '../../hooks/use-alert-counts.js';
import { useCacheVersion } from '../../hooks/use-cache-version.js';
import { type KeysetWindow, useKeysetWindow } from '../../hooks/use-keyset-window.js';
import { useMonitorStatus } from '../../hooks/use-monitor-status.js';
import { useNow } from '../../hooks/use-now.js';
import { useStreamHealth } from '../../hooks/use-stream-health.js';
import { useDeps, useUiActions } from '../../state/monitor-context.js';
import { type AlertItem, alertSource, liveItems } from './alert-items.js';

export interface AlertsState {
  /** Stored alerts and live conditions in the pane's order, a window `listHeight` rows tall. */
  list: KeysetWindow<AlertItem>;
  counts: ReturnType<typeof useAlertCounts>;
  /** Marks a stored alert acknowledged, now. */
  acknowledge(alertId: number): void;
  /** The kept deliveries behind a webhook-rejected alert (none for any other alert). */
  rejectedDeliveries(alert: AlertRow): RejectedDelivery[];
}

export function useAlertsState(listHeight: number): AlertsState {
  const { cache, now } = useDeps();
  const actions = useUiActions();
  const status = useMonitorStatus();
  const nowMs = useNow();
  const alertsVersion = useCacheVersion(['alerts']);
  const health = useStreamHealth(nowMs);
  const live = liveItems(liveConditions(status, health));
  // the source stays the same object (a new one would send the window back to the top); it reads the latest
  // conditions through a ref, and their text joins the version so a change re-reads the window
  const liveRef = useRef(live);
  liveRef.current = live;
  const source = useMemo(() => alertSource(cache, () => liveRef.current), [cache]);
  const liveSignature = [...live.connection, ...live.sync].map((c) => `${c.marker}${c.message}`).join('|');
  const counts = useAlertCounts();
  const list = useKeysetWindow(source, listHeight, `${alertsVersion}|${liveSignature}`);
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
  const rejectedDeliveries = useCallback((alert: AlertRow) => cache.alerts.rejectedDeliveries(alert), [cache]);
  return { list, counts, acknowledge, rejectedDeliveries };
}
