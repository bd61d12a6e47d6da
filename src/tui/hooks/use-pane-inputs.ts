import type { City } from '../../contract/cities.js';
import { useDeps, useUiState } from '../state/monitor-context.js';
import type { PaneInputs } from '../state/pane-store.js';
import { useReplayInstant } from '../state/replay-context.js';
import { useMinute } from './use-now.js';

/**
 * What a pane asks its store for (state/pane-store.ts): the cities, the one chosen, their rules, the minute (the
 * local clocks and the phases move once a minute, not with every tick of the status bar), time travel's instant (its
 * day pinned: DESIGN 4) and the pane's size.
 */
export function usePaneInputs(cities: readonly City[], width: number, height: number): PaneInputs {
  const { now, settlement } = useDeps();
  const { city: chosen } = useUiState();
  const minute = useMinute();
  const { atMs, date } = useReplayInstant();
  const city = cities.find((c) => c.city_id === chosen) ?? cities[0] ?? null;
  return { cities, city, settlement, minute, nowMs: now().getTime(), instant: { atMs, date }, width, height };
}
