import type { BoardRow } from '../../../board/board-row.js';

export type BoardSort = 'edge' | 'time' | 'city';
export const BOARD_SORTS: readonly BoardSort[] = ['edge', 'time', 'city'];
export const SORT_NAMES: Record<BoardSort, string> = { edge: 'best edge', time: 'local time', city: 'city' };

/** Best edge first (rows without one last), or the latest local time first, or by city name. */
export function sortBoard(rows: readonly BoardRow[], by: BoardSort): BoardRow[] {
  // by the names' characters, not localeCompare, whose collator pulls ICU's data into the process (city-time.ts
  // says why): the service's names are capitalised alike, and a name with an accent sorts as its letters' codes do
  const byName = (a: BoardRow, b: BoardRow) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
  const compare: Record<BoardSort, (a: BoardRow, b: BoardRow) => number> = {
    edge: (a, b) =>
      (b.best?.edge ?? Number.NEGATIVE_INFINITY) - (a.best?.edge ?? Number.NEGATIVE_INFINITY) || byName(a, b),
    time: (a, b) => b.localMinutes - a.localMinutes || byName(a, b),
    city: byName,
  };
  return [...rows].sort(compare[by]);
}
