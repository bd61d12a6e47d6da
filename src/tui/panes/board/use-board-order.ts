import { useMemo, useRef } from 'react';
import type { BoardRow } from '../../../board/board-row.js';
import { type BoardSort, type EdgeOrder, sortBoard, stableEdgeOrder } from './board-sort.js';

/**
 * The board's rows in the order chosen. By best edge, the order last drawn is kept while no edge crosses
 * `alerts.edge_min` (board-sort.ts `stableEdgeOrder` says why); choosing the order again (`o` round to it) sorts
 * afresh. The other orders are stable by themselves (local time, city).
 */
export function useBoardOrder(rows: readonly BoardRow[], sort: BoardSort, edgeMin: number): BoardRow[] {
  const last = useRef<EdgeOrder | null>(null);
  return useMemo(() => {
    if (sort !== 'edge') {
      last.current = null;
      return sortBoard(rows, sort);
    }
    const next = stableEdgeOrder(rows, edgeMin, last.current);
    last.current = next.order;
    return next.rows;
  }, [rows, sort, edgeMin]);
}
