import { useMemo } from 'react';
import type { City } from '../../../contract/cities.js';
import { useKeptRead } from '../../hooks/use-kept-read.js';
import { useMinute } from '../../hooks/use-now.js';
import { type ScrollActions, useScrollState } from '../../hooks/use-scroll-state.js';
import { useDeps, useUiState } from '../../state/monitor-context.js';
import { useReplayInstant } from '../../state/replay-context.js';
import { type Line, line, seg } from '../../theme.js';
import { forecastPage } from './forecast-layout.js';
import { type ForecastData, forecastAsk, forecastRead } from './forecast-read.js';

export interface ForecastsState {
  lines: Line[];
  /** The first line shown, and the last it can be. */
  offset: number;
  maxOffset: number;
  scroll: ScrollActions;
}

const NO_CITY: Line[] = [line(seg('No cities cached yet: the first sync brings them.', 'muted'))];

/**
 * The last layouts of each city's data (kept with the data, not the pane): showing the pane again, or `u` back to a
 * unit shown before, lays out nothing. A few: both units at the size shown, and the one before a resize.
 */
const layouts = new WeakMap<ForecastData, Map<string, Line[]>>();
const LAYOUTS_KEPT = 4;

/**
 * One city's page, in the unit shown (`u`): laid out again only when its data, the unit or the size change. Also
 * called ahead of the pane (components/prewarm.tsx), so the key that first shows it finds the page laid out.
 */
export function pageOf(data: ForecastData | null, otherUnit: boolean, width: number, height: number): Line[] {
  if (!data) return NO_CITY;
  const key = `${otherUnit} ${width} ${height}`;
  let kept = layouts.get(data);
  if (!kept) {
    kept = new Map<string, Line[]>();
    layouts.set(data, kept);
  }
  const laidOut = kept.get(key);
  if (laidOut) return laidOut;
  const { marketUnit } = data;
  const unit = otherUnit ? (marketUnit === 'F' ? 'C' : 'F') : marketUnit;
  const lines = forecastPage({ ...data, unit }, width, height);
  kept.set(key, lines);
  // the oldest goes first (a Map keeps insertion order)
  for (const old of kept.keys()) if (kept.size > LAYOUTS_KEPT) kept.delete(old);
  return lines;
}

export function useForecastsState(cities: readonly City[], width: number, height: number): ForecastsState {
  const { now, settlement, hub } = useDeps();
  const { city: chosen, otherUnit } = useUiState();
  const [scroll, scrollActions] = useScrollState();
  // the local clock and the chart's now mark move once a minute, not with every tick of the status bar
  const minute = useMinute();
  const city = cities.find((c) => c.city_id === chosen) ?? cities[0] ?? null;
  // time travel: the page as of its instant, its pinned day's market, chart and book
  const instant = useReplayInstant();
  // kept between visits: the key that shows a city seen before draws it from memory (forecast-read.ts)
  const data = useKeptRead(forecastRead(hub, instant), forecastAsk(city, settlement, minute, now().getTime(), instant));
  const lines = useMemo(() => pageOf(data, otherUnit, width, height), [data, otherUnit, width, height]);
  const maxOffset = Math.max(0, lines.length - height);
  const offset = Math.min(scroll.cursor, maxOffset);
  return { lines, offset, maxOffset, scroll: scrollActions };
}
