import type { BoardRow } from '../../../../board/board-row.js';
import type { City } from '../../../../contract/cities.js';
import { LineView } from '../../../components/line-view.js';
import { cityDetailLines, DETAIL_MIN_ROWS } from './city-detail-lines.js';
import { useCityDetail } from './use-city-detail.js';

/** Terminal rows under which the strip is not drawn: the board's rows keep the screen (issue 45). */
export const DETAIL_MIN_TERMINAL_ROWS = 30;

export interface CityDetailStripProps {
  width: number;
  /** The rows the board leaves free under its own. */
  height: number;
  cities: readonly City[];
  /** The board's selected row: its city and its market day (a tomorrow row is tomorrow's market). */
  selected: BoardRow | undefined;
}

/**
 * The selected city's detail in the board's free rows, as k9s and lazygit show the selected item (issue 45 item 2):
 * drawn only in `DETAIL_MIN_ROWS` rows or more, its least important lines going first as the rows run out
 * (city-detail-lines.ts). Each market in the unit it settles in, as the board shows it.
 */
export function CityDetailStrip({ width, height, cities, selected }: CityDetailStripProps) {
  const detail = useCityDetail(selected, cities, width, height);
  if (detail === null || height < DETAIL_MIN_ROWS) return null;
  return <LineView lines={cityDetailLines(detail, width, height)} width={width} height={height} />;
}
