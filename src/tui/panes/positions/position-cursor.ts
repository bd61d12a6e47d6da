import type { PositionLine } from './position-lines.js';

/**
 * The line a cursor at `from` rests on: the nearest that Enter opens (a position, a leg, a lock), looking the way it
 * moved (`dir`) first, then back; section and column headers are passed over. A book with nothing to open keeps
 * `from`, so the keys still scroll it.
 */
export function positionAt(lines: readonly PositionLine[], from: number, dir: 1 | -1): number {
  const opens = (i: number) => lines[i]?.detail != null;
  for (let i = from; i >= 0 && i < lines.length; i += dir) if (opens(i)) return i;
  for (let i = from - dir; i >= 0 && i < lines.length; i -= dir) if (opens(i)) return i;
  return from;
}
