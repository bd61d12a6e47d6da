import { Box } from 'ink';
import type { Cache } from '../../cache/index.js';
import { useCacheQuery } from '../hooks/use-cache-query.js';
import { useMonitorStatus } from '../hooks/use-monitor-status.js';
import { useTerminalSize } from '../hooks/use-terminal-size.js';
import { useDeps, useUiState } from '../state/monitor-context.js';
import { useReplay } from '../state/replay-context.js';
import { ActivePane } from './active-pane.js';
import { DemoBanner } from './demo-banner.js';
import { GlobalKeys } from './global-keys.js';
import { OverlayView } from './overlay-view.js';
import { Prewarm } from './prewarm.js';
import { ReplayBanner } from './replay-banner.js';
import { ReplayKeys } from './replay-keys.js';
import { StatusBar, useStatusLines } from './status-bar.js';
import { TabBar } from './tab-bar.js';
import { MIN_COLUMNS, MIN_ROWS, TooSmall } from './too-small.js';

const readCities = (cache: Cache) => cache.resources.cities();

/**
 * The screen: time travel's banner (while replaying), tab bar, demo banner, the pane (or the overlay in front of it),
 * status bar (one line or two, as its groups need). Everything is sized from the terminal and kept one row short of
 * it: Ink redraws a frame as tall as the terminal by clearing the whole screen and the scrollback first, which
 * flickers. The status bar ticks with the clock; the pane (memoised) does not re-render with it.
 */
export function Shell() {
  const { now } = useDeps();
  const { pane, overlay, city } = useUiState();
  const replay = useReplay();
  const { columns, rows } = useTerminalSize();
  const status = useMonitorStatus();
  const cities = useCacheQuery(['cities'], readCities);
  const statusLines = useStatusLines(columns, cities);

  if (columns < MIN_COLUMNS || rows < MIN_ROWS) {
    return (
      <>
        <GlobalKeys />
        <ReplayKeys />
        <TooSmall columns={columns} rows={rows} />
      </>
    );
  }
  const statusHeight = statusLines.length;
  const banner = status.mode === 'demo' ? 1 : 0;
  const replayBanner = replay ? 1 : 0;
  const bodyHeight = Math.max(1, rows - 1 - 1 - banner - replayBanner - statusHeight);
  return (
    <Box flexDirection="column" width={columns}>
      <GlobalKeys />
      <Prewarm cities={cities} width={columns} height={bodyHeight} />
      <ReplayKeys />
      {replay ? (
        <ReplayBanner width={columns} replay={replay} city={cities.find((c) => c.city_id === city) ?? cities[0]} />
      ) : null}
      <TabBar width={columns} />
      {banner ? <DemoBanner width={columns} host={status.host} /> : null}
      {overlay ? (
        <OverlayView overlay={overlay} cities={cities} width={columns} height={bodyHeight} nowMs={now().getTime()} />
      ) : null}
      {/* stays mounted behind an overlay, so Esc comes back to the same row */}
      <Box display={overlay ? 'none' : 'flex'} flexDirection="column">
        <ActivePane pane={pane} width={columns} height={bodyHeight} cities={cities} />
      </Box>
      <StatusBar width={columns} lines={statusLines} />
    </Box>
  );
}
