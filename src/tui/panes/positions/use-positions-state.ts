import { useMemo } from 'react';
import type { City } from '../../../contract/cities.js';
import { cityNames } from '../../../domain/city-names.js';
import { usePaneInputs } from '../../hooks/use-pane-inputs.js';
import { usePaneRead } from '../../hooks/use-pane-read.js';
import { clampScroll, type ScrollActions, useScrollState } from '../../hooks/use-scroll-state.js';
import type { ChangeHub } from '../../state/change-hub.js';
import { PaneStore } from '../../state/pane-store.js';
import { usePaneStore } from '../pane-stores.js';
import { positionAt } from './position-cursor.js';
import { type PositionLine, positionLines } from './position-lines.js';
import { POSITIONS_STORE } from './positions-model.js';

export interface PositionsState {
  lines: PositionLine[];
  /** The selected line and the first one shown, clamped to the lines there are now. */
  cursor: number;
  /** Where the scroll state has its cursor (the selected line is the position nearest it). */
  scrolledTo: number;
  offset: number;
  /** Lines below the pane's header. */
  bodyHeight: number;
  scroll: ScrollActions;
}

/** The book priced (positions-model.ts). */
export const positionsStore = (hub: ChangeHub) => new PaneStore(hub, POSITIONS_STORE);

export function usePositionsState(cities: readonly City[], width: number, height: number): PositionsState {
  const [scroll, scrollActions] = useScrollState();
  // what is open now, or what was open at time travel's instant, marked then, from the pane's store
  const store = usePaneStore(positionsStore);
  const book = usePaneRead(store, usePaneInputs(cities, width, height));
  // each line laid out when shown (position-lines.ts): a book of thousands costs a screenful; the lines are kept with
  // the book, so showing the pane again lays out none
  const lines = useMemo(
    () =>
      store.layout(book, `${width} ${cities.map((c) => `${c.city_id}=${c.city_name}`).join(' ')}`, () =>
        positionLines(book, width, cityNames(cities)),
      ),
    [store, book, width, cities],
  );
  const bodyHeight = Math.max(1, height - 1);
  const at = clampScroll(scroll, lines.length, bodyHeight);
  // the cursor rests on a line Enter opens, never a header (the first position when the pane opens)
  const cursor = positionAt(lines, at.cursor, 1);
  const offset = Math.min(Math.max(at.offset, cursor - bodyHeight + 1), cursor);
  return { lines, cursor, scrolledTo: at.cursor, offset, bodyHeight, scroll: scrollActions };
}
