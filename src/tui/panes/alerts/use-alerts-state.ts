import { useCallback, useMemo, useRef } from 'react';
import { liveConditions } from '../../../alerts/live-conditions.js';
import { useAlertCounts } from '../../hooks/use-alert-counts.js';
import { useCacheVersion } from '../../hooks/use-cache-version.js';
import { type KeysetWindow, useKeysetWindow } from '../../hooks/use-keyset-window.js';
import { useMonitorStatus } from '../../hooks/use-monitor-status.js';
import { useNow } from '../../hooks/use-now.js';
import { useStreamHealth } from '../../hooks/use-stream-health.js';
import { useDeps } from '../../state/monitor-context.js';
import { type AlertItem, alertSource, liveItems } from './alert-items.js';

export interface AlertsState {
  /** Stored alerts and live conditions in the pane's order, a window `listHeight` rows tall. */
  list: KeysetWindow<AlertItem>;
  counts: ReturnType<typeof useAlertCounts>;
  /** Marks a stored alert acknowledged, now. */
  acknowledge(alertId: number): void;
}

export function useAlertsState(listHeight: number): AlertsState {
  const { cache, now } = useDeps();
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
  const acknowledge = useCallback((id: number) => cache.acknowledgeAlert(id, now().toISOString()), [cache, now]);
  return { list, counts, acknowledge };
}
