import { useMemo } from 'react';
import type { City } from '../../../contract/cities.js';
import { usePaneInputs } from '../../hooks/use-pane-inputs.js';
import { usePaneRead } from '../../hooks/use-pane-read.js';
import { type ScrollActions, useScrollState } from '../../hooks/use-scroll-state.js';
import type { ChangeHub } from '../../state/change-hub.js';
import { useUiState } from '../../state/monitor-context.js';
import { PaneStore } from '../../state/pane-store.js';
import type { Line } from '../../theme.js';
import { usePaneStore } from '../pane-stores.js';
import { pageOf } from './forecast-page.js';
import { FORECASTS_STORE } from './forecasts-store.js';

export interface ForecastsState {
  lines: Line[];
  /** The first line shown, and the last it can be. */
  offset: number;
  maxOffset: number;
  scroll: ScrollActions;
}

/** The chosen city's page (forecasts-store.ts), warmed: its first frame laid out before its key. */
export const forecastsStore = (hub: ChangeHub) => new PaneStore(hub, FORECASTS_STORE);

export function useForecastsState(cities: readonly City[], width: number, height: number): ForecastsState {
  const { otherUnit } = useUiState();
  const [scroll, scrollActions] = useScrollState();
  // the chosen city's page as of now, or as of time travel's instant (its pinned day's market, chart and book), from
  // the pane's store: a city seen before is drawn from memory, and its page laid out once a unit and size
  const store = usePaneStore(forecastsStore);
  const data = usePaneRead(store, usePaneInputs(cities, width, height));
  const lines = useMemo(() => pageOf(store, data, otherUnit, width, height), [store, data, otherUnit, width, height]);
  const maxOffset = Math.max(0, lines.length - height);
  const offset = Math.min(scroll.cursor, maxOffset);
  return { lines, offset, maxOffset, scroll: scrollActions };
}
