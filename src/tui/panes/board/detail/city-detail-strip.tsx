import { LineView } from '../../../components/line-view.js';
import { useTerminalSize } from '../../../hooks/use-terminal-size.js';
import type { StripViewProps } from '../../pane-entry.js';
import { cityDetailLines, DETAIL_MIN_ROWS } from './city-detail-lines.js';
import { useCityDetail } from './use-city-detail.js';

/** Terminal rows under which the strip is not drawn: the board's rows keep the screen (issue 45). */
export const DETAIL_MIN_TERMINAL_ROWS = 30;

/**
 * The selected city's detail in the board's free rows, as k9s and lazygit show the selected item (issue 45 item 2):
 * drawn only in `DETAIL_MIN_ROWS` rows or more, on a terminal of `DETAIL_MIN_TERMINAL_ROWS` or more, its least
 * important lines going first as the rows run out (city-detail-lines.ts). Each market in the unit it settles in, as
 * the board shows it (`u` does not change it).
 */
export function CityDetailStrip({ width, height, cities, selected }: StripViewProps) {
  const { rows } = useTerminalSize();
  const hidden = height < DETAIL_MIN_ROWS || rows < DETAIL_MIN_TERMINAL_ROWS;
  // hidden, nothing is asked for: no read
  const detail = useCityDetail(hidden ? undefined : selected, cities, width, height);
  if (detail === null || hidden) return null;
  return <LineView lines={cityDetailLines(detail, width, height)} width={width} height={height} />;
}
