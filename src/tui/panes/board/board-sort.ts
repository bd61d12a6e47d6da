import type { BoardRow } from '../../../board/board-row.js';

export type BoardSort = 'edge' | 'time' | 'city';
/** The orders `o` cycles through, from the default (use-monitor-state.ts `initialUiState`): local time first. */
export const BOARD_SORTS: readonly BoardSort[] = ['time', 'edge', 'city'];
export const SORT_NAMES: Record<BoardSort, string> = { edge: 'best edge', time: 'local time', city: 'city' };

/** What an order reads of a row (a BoardRow is one). */
export interface SortedRow extends Pick<BoardRow, 'cityId' | 'name' | 'localMinutes' | 'dayOffset' | 'tomorrow'> {
  best: { edge: number } | null;
}

/** Minutes of the city's clock from the start of the board's market day (negative: still on the day before). */
const localOnDay = (r: SortedRow): number => r.dayOffset * 1_440 + r.localMinutes;

/** A row's key for the cursor: the city, and `tomorrow` after it on the row of its next market day. */
export const boardRowKey = (r: Pick<BoardRow, 'cityId' | 'tomorrow'>): string =>
  r.tomorrow ? `${r.cityId} tomorrow` : r.cityId;

/**
 * Best edge first (rows without one last), or the latest local time first, or by city name. A city's `tomorrow` row
 * (its next market day, read-board.ts) goes directly under its own day's row, whatever its edge: the city sorts by
 * the day it is trading, and tomorrow's row reads as its next line.
 */
export function sortBoard<R extends SortedRow>(rows: readonly R[], by: BoardSort): R[] {
  // by the names' characters, not localeCompare, whose collator pulls ICU's data into the process (city-time.ts
  // says why): the service's names are capitalised alike, and a name with an accent sorts as its letters' codes do
  const byName = (a: R, b: R) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
  const compare: Record<BoardSort, (a: R, b: R) => number> = {
    edge: (a, b) =>
      (b.best?.edge ?? Number.NEGATIVE_INFINITY) - (a.best?.edge ?? Number.NEGATIVE_INFINITY) || byName(a, b),
    // the clock against the market day: time travel pins the day, so a city still on the day before (`-1d 22:00`)
    // is behind every city on it, however late its clock reads
    time: (a, b) => localOnDay(b) - localOnDay(a) || byName(a, b),
    city: byName,
  };
  const tomorrow = new Map(rows.filter((r) => r.tomorrow).map((r) => [r.cityId, r]));
  const sorted = rows.filter((r) => !r.tomorrow).sort(compare[by]);
  return sorted.flatMap((r) => {
    const next = tomorrow.get(r.cityId);
    return next ? [r, next] : [r];
  });
}

/** The order by best edge as last drawn: the rows' keys top to bottom, and those whose edge was at least edge_min. */
export interface EdgeOrder {
  keys: readonly string[];
  above: ReadonlySet<string>;
}

/**
 * The order by best edge, kept while it says the same thing: the rows keep their places from the last order while
 * every edge stays on its side of `alerts.edge_min` (an edge worth taking, DESIGN 4's alert and record) and the same
 * rows are on the board. Edges of a few points move at every refresh (a snapshot, a METAR report): sorted each time,
 * the rows would change places under the trader's eyes for nothing to act on. An edge crossing edge_min, a row
 * arriving or leaving (or no last order) sorts again. A tomorrow row follows its city, so its edge does not count.
 */
export function stableEdgeOrder<R extends SortedRow>(
  rows: readonly R[],
  edgeMin: number,
  last: EdgeOrder | null,
): { rows: R[]; order: EdgeOrder } {
  const above = new Set(rows.filter((r) => !r.tomorrow && r.best && r.best.edge >= edgeMin).map((r) => boardRowKey(r)));
  const byKey = new Map(rows.map((r) => [boardRowKey(r), r]));
  const same =
    last !== null &&
    last.keys.length === byKey.size &&
    last.keys.every((k) => byKey.has(k)) &&
    last.above.size === above.size &&
    [...above].every((k) => last.above.has(k));
  const sorted = same ? last.keys.map((k) => byKey.get(k) as R) : sortBoard(rows, 'edge');
  return { rows: sorted, order: { keys: sorted.map((r) => boardRowKey(r)), above } };
}
