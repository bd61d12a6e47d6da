import { useMemo } from 'react';
import type { BoardRow } from '../../../../board/board-row.js';
import { type CityDetail, cityDetail } from '../../../../board/city-detail.js';
import type { City } from '../../../../contract/cities.js';
import { usePaneInputs } from '../../../hooks/use-pane-inputs.js';
import { usePaneRead } from '../../../hooks/use-pane-read.js';
import { usePaneStore } from '../../pane-stores.js';
import { cityDetailStore } from './city-detail-store.js';

/**
 * The selected row's detail: its city-day read through the strip's store as of the board's instant (live, or time
 * travel's, as the board's own read), worked out with the row (board/city-detail.ts). Null without a row.
 */
export function useCityDetail(
  selected: BoardRow | undefined,
  cities: readonly City[],
  width: number,
  height: number,
): CityDetail | null {
  const inputs = usePaneInputs(cities, width, height);
  const at = usePaneRead(
    usePaneStore(cityDetailStore),
    useMemo(() => ({ ...inputs, selected }), [inputs, selected]),
  );
  return useMemo(() => (at !== null && selected ? cityDetail(selected, at.read, at.atMs) : null), [selected, at]);
}
