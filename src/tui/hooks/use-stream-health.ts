import { allStreamHealth, type StreamHealth } from '../../alerts/stream-health.js';
import type { Cache } from '../../cache/index.js';
import { useDeps } from '../state/monitor-context.js';
import { useCacheQuery } from './use-cache-query.js';
import { useMonitorStatus } from './use-monitor-status.js';

const readStreamStates = (cache: Cache) => cache.streams.states();

/**
 * Every stream's health at `nowMs` (the caller's clock tick), against the configured poll intervals, stale or dead on
 * the host's clock where the passes kept it (stream-health.ts); offline, where no stream polls, none goes stale (the
 * status bar says how old the cache is instead).
 */
export function useStreamHealth(nowMs: number): StreamHealth[] {
  const { intervals } = useDeps();
  const { mode } = useMonitorStatus();
  const states = useCacheQuery(['streams'], readStreamStates);
  return allStreamHealth(states, nowMs, intervals, mode !== 'offline', Date.now());
}
