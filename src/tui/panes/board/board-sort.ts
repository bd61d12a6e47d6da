import type { BoardRow } from '../../../board/board-row.js';

export type BoardSort = 'edge' | 'time' | 'city';
export const BOARD_SORTS: readonly BoardSort[] = ['edge', 'time', 'city'];
export const SORT_NAMES: Record<BoardSort, string> = { edge: 'best edge', time: 'local time', city: 'city' };

/**
 * Best edge first (rows without one last), or the latest local time first, or by city name. A city's `tomorrow` row
 * (its next market day, read-board.ts) goes directly under its own day's row, whatever its edge: the city sorts by
 * the day it is trading, and tomorrow's row reads as its next line.
 */
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
  const tomorrow = new Map(rows.filter((r) => r.tomorrow).map((r) => [r.cityId, r]));
  const sorted = rows.filter((r) => !r.tomorrow).sort(compare[by]);
  return sorted.flatMap((r) => {
    const next = tomorrow.get(r.cityId);
    return next ? [r, next] : [r];
  });
}

/** A row's key for the cursor: the city, and `tomorrow` after it on the row of its next market day. */
export const boardRowKey = (r: BoardRow): string => (r.tomorrow ? `${r.cityId} tomorrow` : r.cityId);
