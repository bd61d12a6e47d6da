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
 * at the list's first row), `selected` the selected row's place in the window and `selectedKey` its key (null until
 * a key moved the cursor): a row that arrives above it (a new alert, a new signal) or a re-order moves the row, and
 * the selection goes with it, so Enter, `a` and `z` act on the row the trader chose. `owner` is the source the keys
 * belong to: a key of one table means nothing to another, so a new source starts at the top.
 */
export interface KeysetWindowState<Key> {
  owner: unknown;
  above: Key | null;
  selected: number;
  selectedKey: Key | null;
}

/** Keys are values (an id, a timestamp and an id, a segment and an id), compared by what they hold. */
const sameKey = (a: unknown, b: unknown) => a === b || JSON.stringify(a) === JSON.stringify(b);

/**
 * The selected row's place in `rows` (a window of `source`): its key's row while it is in the window, else the place
 * it had (its row left: the one now there), 0 for a new source.
 */
export function selectedIndex<Row, Key>(
  source: KeysetSource<Row, Key>,
  rows: readonly Row[],
  state: KeysetWindowState<Key>,
): number {
  if (state.owner !== source) return 0;
  if (state.selectedKey !== null) {
    const at = rows.findIndex((row) => sameKey(source.keyOf(row), state.selectedKey));
    if (at >= 0) return at;
  }
  return Math.max(0, Math.min(state.selected, rows.length - 1));
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
  const above = state.owner === source && action.type !== 'home' ? state.above : null;
  const { rows, moreBelow } =
    shown.owner === source && shown.above === above ? shown.window : readWindow(source, above, height);
  const selected = selectedIndex(source, rows, state);
  const keyAt = (i: number) => keyOrNull(source, rows[i]);
  // the row the cursor lands on, read from the window it lands in (the one in hand when the window stays)
  const at = (nextAbove: Key | null, nextSelected: number): KeysetWindowState<Key> => {
    const landed = nextAbove === above ? rows : readWindow(source, nextAbove, height).rows;
    const key = keyOrNull(source, landed[Math.max(0, Math.min(nextSelected, landed.length - 1))]);
    return { owner: source, above: nextAbove, selected: nextSelected, selectedKey: key };
  };
  if (action.type === 'home') return at(null, 0);
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
  const [state, dispatch] = useReducer(reducer<Row, Key>, {
    owner: undefined,
    above: null,
    selected: 0,
    selectedKey: null,
  });
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
