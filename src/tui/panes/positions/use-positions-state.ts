import { useMemo } from 'react';
import type { City } from '../../../contract/cities.js';
import { type CityName, cityNames } from '../../../domain/city-names.js';
import { useCacheVersion } from '../../hooks/use-cache-version.js';
import { useKeptRead } from '../../hooks/use-kept-read.js';
import { useMinute } from '../../hooks/use-now.js';
import { clampScroll, type ScrollActions, useScrollState } from '../../hooks/use-scroll-state.js';
import { useDeps } from '../../state/monitor-context.js';
import { useReplayInstant } from '../../state/replay-context.js';
import { positionAt } from './position-cursor.js';
import { type PositionLine, positionLines } from './position-lines.js';
import { type PricedBook, positionsAsk, positionsKept, QUOTE_TOPICS } from './positions-model.js';

/**
 * The lines of each book kept with the book (not with the pane), for the width they were laid out at: showing the
 * pane again makes none (a book of 10,000 positions is as many lines, each laid out only when shown).
 */
const laidOut = new WeakMap<PricedBook, { width: number; name: CityName; lines: PositionLine[] }>();

function linesOf(book: PricedBook, width: number, name: CityName): PositionLine[] {
  const kept = laidOut.get(book);
  if (kept?.width === width && kept.name === name) return kept.lines;
  const lines = positionLines(book, width, name);
  laidOut.set(book, { width, name, lines });
  return lines;
}

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

export function usePositionsState(cities: readonly City[], width: number, height: number): PositionsState {
  const { hub } = useDeps();
  const [scroll, scrollActions] = useScrollState();
  const quotesVersion = useCacheVersion(QUOTE_TOPICS);
  // kept between visits: the key that shows the pane draws it from memory (positions-model.ts)
  const minute = useMinute();
  // time travel: what was open at its instant, marked then
  const instant = useReplayInstant();
  const book = useKeptRead(positionsKept(hub, instant), positionsAsk(cities, minute, quotesVersion, instant));
  // each line laid out when shown (position-lines.ts): a book of thousands costs a screenful
  const name = useMemo(() => cityNames(cities), [cities]);
  const lines = useMemo(() => linesOf(book, width, name), [book, width, name]);
  const bodyHeight = Math.max(1, height - 1);
  const at = clampScroll(scroll, lines.length, bodyHeight);
  // the cursor rests on a line Enter opens, never a header (the first position when the pane opens)
  const cursor = positionAt(lines, at.cursor, 1);
  const offset = Math.min(Math.max(at.offset, cursor - bodyHeight + 1), cursor);
  return { lines, cursor, scrolledTo: at.cursor, offset, bodyHeight, scroll: scrollActions };
}
