import { useCallback, useEffect, useMemo, useRef } from 'react';
import type { BoardRow } from '../../../board/board-row.js';
import type { City } from '../../../contract/cities.js';
import { useKeptRead } from '../../hooks/use-kept-read.js';
import { useMinute } from '../../hooks/use-now.js';
import { clampScroll, type ScrollActions, scrolledTo, useScrollState } from '../../hooks/use-scroll-state.js';
import { useDeps, useUiActions, useUiState } from '../../state/monitor-context.js';
import { useReplayInstant } from '../../state/replay-context.js';
import { boardAsk, boardRead } from './board-read.js';
import { BOARD_SORTS, type BoardSort, sortBoard } from './board-sort.js';

export interface BoardState {
  rows: BoardRow[];
  sort: BoardSort;
  nextSort(): void;
  /** The selected row and the first one shown. */
  cursor: number;
  offset: number;
  /** Rows below the pane's header and column titles. */
  bodyHeight: number;
  scroll: ScrollActions;
}

export function useBoardState(cities: readonly City[], height: number): BoardState {
  const { now, settlement, hub } = useDeps();
  const { boardSort: sort, city } = useUiState();
  const { setBoardSort } = useUiActions();
  // the local clocks and the phases move once a minute, not with every tick of the status bar
  const minute = useMinute();
  // time travel: the board as of its instant, its day pinned (DESIGN 4); live, as of now
  const instant = useReplayInstant();
  // kept between visits: the key that shows the board draws it from memory (board-read.ts)
  const unsorted = useKeptRead(boardRead(hub, instant), boardAsk(cities, settlement, minute, now().getTime(), instant));
  const rows = useMemo(() => sortBoard(unsorted, sort), [unsorted, sort]);
  const nextSort = useCallback(
    () => setBoardSort(BOARD_SORTS[(BOARD_SORTS.indexOf(sort) + 1) % BOARD_SORTS.length] as BoardSort),
    [sort, setBoardSort],
  );
  const bodyHeight = Math.max(1, height - 2);
  // back from a city opened with Enter (or chosen with c): the cursor starts on its row, in the first commit
  const rowOf = (list: readonly BoardRow[]) =>
    Math.max(
      0,
      list.findIndex((r) => r.cityId === city),
    );
  const [scroll, scrollActions] = useScrollState(() => scrolledTo(rowOf(rows), rows.length, bodyHeight));
  // a board with no row yet (no city cached): the cursor goes to the city once the first sync brings the rows
  const placed = useRef(rows.length > 0);
  useEffect(() => {
    if (placed.current || rows.length === 0) return;
    placed.current = true;
    const at = rowOf(rows);
    if (at > 0) scrollActions.move(at, rows.length, bodyHeight);
  });
  const { cursor, offset } = clampScroll(scroll, rows.length, bodyHeight);
  return { rows, sort, nextSort, cursor, offset, bodyHeight, scroll: scrollActions };
}
