import { useMemo, useReducer } from 'react';
import type { ListMove } from '../keys.js';

/** A cursor in a document of lines and the first line shown. */
export interface ScrollState {
  cursor: number;
  offset: number;
}

type Action = { type: 'move'; by: number; total: number; height: number } | { type: 'home' };

function reducer(state: ScrollState, action: Action): ScrollState {
  if (action.type === 'home') return { cursor: 0, offset: 0 };
  const { total, height } = action;
  const cursor = Math.max(0, Math.min(total - 1, state.cursor + action.by));
  let offset = state.offset;
  if (cursor < offset) offset = cursor;
  if (cursor >= offset + height) offset = cursor - height + 1;
  return { cursor, offset: Math.max(0, Math.min(offset, Math.max(0, total - height))) };
}

export interface ScrollActions {
  move(by: number, total: number, height: number): void;
  home(): void;
}

/** The state of a document of `total` lines, `height` shown, scrolled from the top to line `cursor`. */
export const scrolledTo = (cursor: number, total: number, height: number): ScrollState =>
  reducer({ cursor: 0, offset: 0 }, { type: 'move', by: cursor, total, height });

/**
 * Scrolling through a document already in memory (a pane's lines, a detail view, the help); `initial` (called once,
 * on the first render) places it somewhere else than the top.
 */
export function useScrollState(initial?: () => ScrollState): [ScrollState, ScrollActions] {
  const [state, dispatch] = useReducer(reducer, undefined, () => initial?.() ?? { cursor: 0, offset: 0 });
  const actions = useMemo<ScrollActions>(
    () => ({
      move: (by, total, height) => dispatch({ type: 'move', by, total, height }),
      home: () => dispatch({ type: 'home' }),
    }),
    [],
  );
  return [state, actions];
}

/** The state clamped to a document that may have shrunk since. */
export function clampScroll(state: ScrollState, total: number, height: number): ScrollState {
  const cursor = Math.max(0, Math.min(state.cursor, total - 1));
  let offset = Math.max(0, Math.min(state.offset, Math.max(0, total - height)));
  if (cursor < offset) offset = cursor;
  if (cursor >= offset + height) offset = Math.max(0, cursor - height + 1);
  return { cursor, offset };
}

/** How far a movement key scrolls, a page being `page` lines; null for Home, which goes to the top instead. */
export function scrollStep(move: ListMove, page: number): number | null {
  if (move === 'home') return null;
  return move === 'down' ? 1 : move === 'up' ? -1 : move === 'pageDown' ? page : -page;
}
