import { useMemo, useReducer } from 'react';

/**
 * A list read by keyset: `older` continues after a key, `newer` goes back before one (nearest first). The window
 * asks only for the rows it shows (plus one to know whether more follow), so its cost does not grow with the list.
 */
export interface KeysetSource<Row, Key> {
  older(after: Key | null, limit: number): Row[];
  newer(before: Key, limit: number): Row[];
  keyOf(row: Row): Key;
}

/**
 * Where a keyset-windowed list stands: `above` is the key of the row just above the window (null: the window starts
 * at the list's first row), `selected` the selected row's place in the window. `owner` is the source the key
 * belongs to: a key of one table means nothing to another, so a new source starts at the top.
 */
export interface KeysetWindowState<Key> {
  owner: unknown;
  above: Key | null;
  selected: number;
}

/** The rows of a window: those shown, and whether more follow below. */
export interface WindowRows<Row> {
  rows: Row[];
  moreBelow: boolean;
}

/** The window of `height` rows after `above`: one row more than shown says whether more follow. */
export function readWindow<Row, Key>(
  source: KeysetSource<Row, Key>,
  above: Key | null,
  height: number,
): WindowRows<Row> {
  const read = height > 0 ? source.older(above, height + 1) : [];
  return { rows: read.length > height ? read.slice(0, height) : read, moreBelow: read.length > height };
}

/**
 * A key's movement, applied to the state it finds, not to the screen last drawn: two keys that arrive before a
 * re-render (a fast `j j`) each move on from where the one before left the list. `shown` is the window of the last
 * render, used when it is still the state's window (the usual case: no second read).
 */
type Action<Row, Key> = {
  source: KeysetSource<Row, Key>;
  height: number;
  shown: { owner: unknown; above: Key | null; window: WindowRows<Row> };
} & ({ type: 'move'; delta: 1 | -1 } | { type: 'page'; direction: 1 | -1 } | { type: 'home' });

function reducer<Row, Key>(state: KeysetWindowState<Key>, action: Action<Row, Key>): KeysetWindowState<Key> {
  const { source, height, shown } = action;
  if (action.type === 'home') return { owner: source, above: null, selected: 0 };
  const above = state.owner === source ? state.above : null;
  const { rows, moreBelow } =
    shown.owner === source && shown.above === above ? shown.window : readWindow(source, above, height);
  const selected = Math.max(0, Math.min(state.owner === source ? state.selected : 0, rows.length - 1));
  const keyAt = (i: number) => keyOrNull(source, rows[i]);
  const at = (nextAbove: Key | null, nextSelected: number): KeysetWindowState<Key> => ({
    owner: source,
    above: nextAbove,
    selected: nextSelected,
  });
  if (action.type === 'move') {
    if (action.delta > 0) {
      if (selected < rows.length - 1) return at(above, selected + 1);
      // at the bottom: the window moves down a row
      return moreBelow ? at(keyAt(0), selected) : state;
    }
    if (selected > 0) return at(above, selected - 1);
    // at the top: the row above the window comes in
    return above !== null ? at(keyOrNull(source, source.newer(above, 1)[0]), 0) : state;
  }
  if (action.direction > 0) return moreBelow ? at(keyAt(rows.length - 1), selected) : at(above, rows.length - 1);
  if (above === null) return at(null, 0);
  // the row keyed `above` is the first row above the window; the new window ends with it
  return at(keyOrNull(source, source.newer(above, height)[height - 1]), selected);
}

const keyOrNull = <Row, Key>(source: KeysetSource<Row, Key>, row: Row | undefined): Key | null =>
  row === undefined ? null : source.keyOf(row);

export interface KeysetWindowActions<Row, Key> {
  move(delta: 1 | -1, source: KeysetSource<Row, Key>, height: number, shown: Action<Row, Key>['shown']): void;
  page(direction: 1 | -1, source: KeysetSource<Row, Key>, height: number, shown: Action<Row, Key>['shown']): void;
  home(source: KeysetSource<Row, Key>, height: number, shown: Action<Row, Key>['shown']): void;
}

export function useKeysetWindowState<Row, Key>(): [KeysetWindowState<Key>, KeysetWindowActions<Row, Key>] {
  const [state, dispatch] = useReducer(reducer<Row, Key>, { owner: undefined, above: null, selected: 0 });
  const actions = useMemo<KeysetWindowActions<Row, Key>>(
    () => ({
      move: (delta, source, height, shown) => dispatch({ type: 'move', delta, source, height, shown }),
      page: (direction, source, height, shown) => dispatch({ type: 'page', direction, source, height, shown }),
      home: (source, height, shown) => dispatch({ type: 'home', source, height, shown }),
    }),
    [],
  );
  return [state, actions];
}
