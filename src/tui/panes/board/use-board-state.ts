import { useCallback, useMemo } from 'react';
import { type BoardRow, boardPicksNote } from '../../../board/board-row.js';
import type { City } from '../../../contract/cities.js';
import { type KeyedCursor, useKeyedCursor } from '../../hooks/use-keyed-cursor.js';
import { usePaneInputs } from '../../hooks/use-pane-inputs.js';
import { usePaneRead } from '../../hooks/use-pane-read.js';
import type { ChangeHub } from '../../state/change-hub.js';
import { useDeps, useUiActions, useUiState } from '../../state/monitor-context.js';
import { PaneStore } from '../../state/pane-store.js';
import { usePaneStore } from '../pane-stores.js';
import { BOARD_STORE } from './board-read.js';
import { BOARD_SORTS, type BoardSort, boardRowKey } from './board-sort.js';
import { useBoardOrder } from './use-board-order.js';

export interface BoardState {
  rows: BoardRow[];
  sort: BoardSort;
  nextSort(): void;
  /** The selected row and the first one shown. */
  cursor: number;
  offset: number;
  /** Rows below the pane's header and column titles. */
  bodyHeight: number;
  scroll: Pick<KeyedCursor, 'move' | 'home'>;
}

/** The board's store: its rows read in slices (board-read.ts); not warmed, the landing pane reads it as it draws. */
export const boardStore = (hub: ChangeHub) => new PaneStore(hub, BOARD_STORE);

export function useBoardState(cities: readonly City[], width: number, height: number): BoardState {
  const { boardSort: sort, city } = useUiState();
  const { setBoardSort } = useUiActions();
  // the board as of now, or as of time travel's instant with its day pinned (DESIGN 4), from its store
  const { edgeMin } = useDeps();
  const inputs = usePaneInputs(cities, width, height);
  const unsorted = usePaneRead(
    usePaneStore(boardStore),
    useMemo(() => ({ ...inputs, edgeMin }), [inputs, edgeMin]),
  );
  const rows = useBoardOrder(unsorted, sort, edgeMin);
  const nextSort = useCallback(
    () => setBoardSort(BOARD_SORTS[(BOARD_SORTS.indexOf(sort) + 1) % BOARD_SORTS.length] as BoardSort),
    [sort, setBoardSort],
  );
  // the lines under the board (the book's horizon, the selected row's edge record: board-pane.tsx) keep their room
  const under = boardPicksNote(rows) === null ? 0 : 1;
  const bodyHeight = Math.max(1, height - 2 - under);
  // the cursor keeps its city as the order changes (by best edge it changes every few minutes); it starts on the city
  // chosen (back from one opened with Enter, or chosen with c), and goes to it once the first sync brings the rows; a
  // city's tomorrow row has a key of its own, so the cursor stays on it as the edges re-order the cities
  const keys = useMemo(() => rows.map(boardRowKey), [rows]);
  const list = useKeyedCursor(keys, bodyHeight, city);
  return { rows, sort, nextSort, cursor: list.cursor, offset: list.offset, bodyHeight, scroll: list };
}
