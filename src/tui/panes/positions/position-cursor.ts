import type { PositionLine } from './position-lines.js';

/**
 * The line a cursor at `from` rests on: the nearest that Enter opens (a position, a leg, a lock), looking the way it
 * moved (`dir`); section and column headers are passed over. With none that way (past the last position: the
 * totals; a book with nothing to open) it stays on `from`, so the keys still scroll to the lines there.
 */
export function positionAt(lines: readonly PositionLine[], from: number, dir: 1 | -1): number {
  for (let i = from; i >= 0 && i < lines.length; i += dir) if (lines[i]?.detail != null) return i;
  return from;
}
