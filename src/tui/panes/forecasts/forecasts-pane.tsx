import type { City } from '../../../contract/cities.js';
import { LineView } from '../../components/line-view.js';
import { useForecastsInput } from './use-forecasts-input.js';
import { useForecastsState } from './use-forecasts-state.js';

/** Pane 5: one city's forecast, models, the day so far and the market's buckets. */
export function ForecastsPane({ width, height, cities }: { width: number; height: number; cities: readonly City[] }) {
  const state = useForecastsState(cities, width, height);
  useForecastsInput(state, height);
  return <LineView lines={state.lines} width={width} height={height} offset={state.offset} />;
}
