import { useMemo, useReducer } from 'react';

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

type Action<Key> =
  | { type: 'select'; owner: unknown; selected: number }
  | { type: 'anchor'; owner: unknown; above: Key | null; selected: number };

function reducer<Key>(state: KeysetWindowState<Key>, action: Action<Key>): KeysetWindowState<Key> {
  if (action.type === 'select') {
    const above = state.owner === action.owner ? state.above : null;
    return { owner: action.owner, above, selected: action.selected };
  }
  return { owner: action.owner, above: action.above, selected: action.selected };
}

export interface KeysetWindowActions<Key> {
  select(owner: unknown, selected: number): void;
  anchor(owner: unknown, above: Key | null, selected: number): void;
}

export function useKeysetWindowState<Key>(): [KeysetWindowState<Key>, KeysetWindowActions<Key>] {
  const [state, dispatch] = useReducer(reducer<Key>, { owner: undefined, above: null, selected: 0 });
  const actions = useMemo<KeysetWindowActions<Key>>(
    () => ({
      select: (owner, selected) => dispatch({ type: 'select', owner, selected }),
      anchor: (owner, above, selected) => dispatch({ type: 'anchor', owner, above, selected }),
    }),
    [],
  );
  return [state, actions];
}
