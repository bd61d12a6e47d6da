import { useMemo, useReducer } from 'react';

/** The cursor of a list that re-orders: the key of the row it is on, where that row was last, the first row shown. */
interface KeyedCursorState {
  key: string | null;
  cursor: number;
  offset: number;
}

/** Where a list of `keys`, `height` rows shown, has its cursor now: on its key's row, else where that row was. */
export function placeCursor(
  state: KeyedCursorState,
  keys: readonly string[],
  height: number,
): { cursor: number; offset: number; key: string | null } {
  const total = keys.length;
  if (total === 0) return { cursor: 0, offset: 0, key: state.key };
  const found = state.key === null ? -1 : keys.indexOf(state.key);
  // a key gone from the list (a city that left it): its neighbour, the row now where it was
  const cursor = found >= 0 ? found : Math.max(0, Math.min(state.cursor, total - 1));
  let offset = Math.max(0, Math.min(state.offset, Math.max(0, total - height)));
  if (cursor < offset) offset = cursor;
  if (cursor >= offset + height) offset = cursor - height + 1;
  return { cursor, offset, key: keys[cursor] ?? null };
}

type Action =
  | { type: 'move'; by: number; keys: readonly string[]; height: number }
  | { type: 'home'; keys: readonly string[] };

function reducer(state: KeyedCursorState, action: Action): KeyedCursorState {
  if (action.type === 'home') return { key: action.keys[0] ?? null, cursor: 0, offset: 0 };
  const { keys, height } = action;
  const at = placeCursor(state, keys, height);
  const cursor = Math.max(0, Math.min(keys.length - 1, at.cursor + action.by));
  return placeCursor({ key: keys[cursor] ?? null, cursor, offset: at.offset }, keys, height);
}

export interface KeyedCursor {
  /** The selected row and the first one shown. */
  cursor: number;
  offset: number;
  move(by: number): void;
  home(): void;
}

/**
 * A cursor that follows its row's key through a list that re-orders (the board sorted by best edge as the edges
 * move, alerts arriving above): Enter and `z` act on the row the trader chose, never on whatever took its place. A
 * row that leaves the list hands the cursor to its neighbour. `initialKey`: the row to start on (the city chosen).
 */
export function useKeyedCursor(keys: readonly string[], height: number, initialKey: string | null = null): KeyedCursor {
  const [state, dispatch] = useReducer(reducer, { key: initialKey, cursor: 0, offset: 0 });
  // until the trader moves it (or a city was chosen), the cursor stays on the top row as the order changes
  const { cursor, offset } = placeCursor(state, keys, height);
  // the actions read the list as drawn, so a key pressed before the next render moves from what is on screen
  const actions = useMemo(
    () => ({
      move: (by: number) => dispatch({ type: 'move', by, keys, height }),
      home: () => dispatch({ type: 'home', keys }),
    }),
    [keys, height],
  );
  return { cursor, offset, ...actions };
}
