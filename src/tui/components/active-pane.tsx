import { memo } from 'react';
import type { City } from '../../contract/cities.js';
import type { PaneId } from '../keys.js';
import { PANE_BY_ID } from '../panes/pane-registry.js';

/**
 * Only the visible pane is mounted: hidden panes would re-query on every cache change for nobody. Memoised: the
 * shell re-renders with the status bar's clock, the pane only when its own state or props change.
 */
export const ActivePane = memo(function ActivePane({
  pane,
  width,
  height,
  cities,
}: {
  pane: PaneId;
  width: number;
  height: number;
  cities: readonly City[];
}) {
  const View = PANE_BY_ID[pane].view;
  return <View width={width} height={height} cities={cities} />;
});
