import { useCallback, useSyncExternalStore } from 'react';
import { useDeps } from '../state/monitor-context.js';
import type { MonitorStatus } from '../types.js';

/** The CLI's live status (mode, connection, listener counts). */
export function useMonitorStatus(): MonitorStatus {
  const { source } = useDeps();
  // called through the source, so a class implementing MonitorSource keeps its `this`
  const subscribe = useCallback((onChange: () => void) => source.subscribe(onChange), [source]);
  const getStatus = useCallback(() => source.getStatus(), [source]);
  return useSyncExternalStore(subscribe, getStatus);
}
