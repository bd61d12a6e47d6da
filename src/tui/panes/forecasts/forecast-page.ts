import type { PaneStore } from '../../state/pane-store.js';
import { type Line, line, seg } from '../../theme.js';
import { forecastPage } from './forecast-layout.js';
import type { ForecastData, ForecastParams } from './forecast-read.js';

const NO_CITY: Line[] = [line(seg('No cities cached yet: the first sync brings them.', 'muted'))];

/**
 * One city's page, in the unit shown (`u`): laid out again only when its data, the unit or the size change (the
 * store keeps the layouts with the data). Also laid out ahead of the pane when the store is warmed, so the key that
 * first shows it finds the page laid out.
 */
export function pageOf(
  store: PaneStore<ForecastParams, ForecastData | null>,
  data: ForecastData | null,
  otherUnit: boolean,
  width: number,
  height: number,
): Line[] {
  if (!data) return NO_CITY;
  return store.layout(data, `${otherUnit} ${width} ${height}`, () => {
    const { marketUnit } = data;
    const unit = otherUnit ? (marketUnit === 'F' ? 'C' : 'F') : marketUnit;
    return forecastPage({ ...data, unit }, width, height);
  });
}
