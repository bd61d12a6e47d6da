import { memo } from 'react';
import type { City } from '../../contract/cities.js';
import type { PaneId } from '../hooks/use-monitor-state.js';
import { AlertsPane } from '../panes/alerts/alerts-pane.js';
import { BoardPane } from '../panes/board/board-pane.js';
import { ForecastsPane } from '../panes/forecasts/forecasts-pane.js';
import { HistoryPane } from '../panes/history/history-pane.js';
import { PositionsPane } from '../panes/positions/positions-pane.js';
import { SignalsPane } from '../panes/signals/signals-pane.js';

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
  switch (pane) {
    case 'board':
      return <BoardPane width={width} height={height} cities={cities} />;
    case 'signals':
      return <SignalsPane width={width} height={height} cities={cities} />;
    case 'positions':
      return <PositionsPane width={width} height={height} cities={cities} />;
    case 'alerts':
      return <AlertsPane width={width} height={height} cities={cities} />;
    case 'forecasts':
      return <ForecastsPane width={width} height={height} cities={cities} />;
    case 'history':
      return <HistoryPane width={width} height={height} cities={cities} />;
  }
});
