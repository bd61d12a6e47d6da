import { useCallback, useEffect, useMemo, useRef } from 'react';
import type { BoardRow } from '../../../board/board-row.js';
import { type BoardMemo, readBoard } from '../../../board/read-board.js';
import type { Cache } from '../../../cache/index.js';
import type { City } from '../../../contract/cities.js';
import { useCacheQuery } from '../../hooks/use-cache-query.js';
import { useNow } from '../../hooks/use-now.js';
import { clampScroll, type ScrollActions, useScrollState } from '../../hooks/use-scroll-state.js';
import { type CacheTopic, POSITION_TOPICS } from '../../state/cache-topics.js';
import { useDeps, useUiActions, useUiState } from '../../state/monitor-context.js';
import { useReplayInstant } from '../../state/replay-context.js';
import { BOARD_SORTS, type BoardSort, sortBoard } from './board-sort.js';

/** Everything a row is worked out from. */
const BOARD_TOPICS: readonly CacheTopic[] = [
  'forecasts',
  'current',
  ...POSITION_TOPICS,
  'alerts',
  'historical/mkta_buckets_history',
  'historical/mktb_buckets_history',
  'historical/metar_observations_history',
];

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
  const { now, settlement } = useDeps();
  const [scroll, scrollActions] = useScrollState();
  const { boardSort: sort, city } = useUiState();
  const { setBoardSort } = useUiActions();
  const memo = useRef<BoardMemo>(new Map());
  // the local clocks and the phases move once a minute, not with every tick of the status bar
  const minute = Math.floor(useNow() / 60_000);
  // time travel: the board as of its instant, its day pinned (DESIGN 4); live, as of now
  const { atMs, date } = useReplayInstant();
  // biome-ignore lint/correctness/useExhaustiveDependencies: minute is not read but re-reads the board, for the clocks
  const read = useCallback(
    (cache: Cache) =>
      atMs === undefined
        ? readBoard(cache, cities, now().getTime(), settlement, memo.current)
        : readBoard(cache, cities, atMs, settlement, memo.current, { date, asOf: atMs }),
    [cities, now, settlement, minute, atMs, date],
  );
  const unsorted = useCacheQuery(BOARD_TOPICS, read);
  const rows = useMemo(() => sortBoard(unsorted, sort), [unsorted, sort]);
  const nextSort = useCallback(
    () => setBoardSort(BOARD_SORTS[(BOARD_SORTS.indexOf(sort) + 1) % BOARD_SORTS.length] as BoardSort),
    [sort, setBoardSort],
  );
  const bodyHeight = Math.max(1, height - 2);
  // back from a city opened with Enter (or chosen with c): the cursor starts on its row
  const placed = useRef(false);
  useEffect(() => {
    if (placed.current || rows.length === 0) return;
    placed.current = true;
    const at = rows.findIndex((r) => r.cityId === city);
    if (at > 0) scrollActions.move(at, rows.length, bodyHeight);
  }, [rows, city, scrollActions, bodyHeight]);
  const { cursor, offset } = clampScroll(scroll, rows.length, bodyHeight);
  return { rows, sort, nextSort, cursor, offset, bodyHeight, scroll: scrollActions };
}
