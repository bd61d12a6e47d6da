import { useCallback } from 'react';
import type { ReadStore } from '../state/pane-store.js';
import { type KeysetSource, readWindow, selectedIndex, useKeysetWindowState } from './use-keyset-window-state.js';
import { useReread } from './use-reread.js';

export type { KeysetSource } from './use-keyset-window-state.js';

export interface KeysetWindow<Row, Key = unknown> {
  rows: Row[];
  /** The key of the row just above the window (null: it starts at the list's first row). */
  above: Key | null;
  selected: number;
  selectedRow: Row | undefined;
  move(delta: 1 | -1): void;
  page(direction: 1 | -1): void;
  home(): void;
}

/**
 * A windowed view of `source`, `height` rows tall, re-read whenever `changes` (the list's change counter) moves. Its
 * keys are worked out from the window's state when they arrive (use-keyset-window-state.ts), so none is lost to a
 * render not yet drawn.
 */
export function useKeysetWindow<Row, Key>(
  source: KeysetSource<Row, Key>,
  height: number,
  changes: ReadStore,
): KeysetWindow<Row, Key> {
  const [state, actions] = useKeysetWindowState<Row, Key>();
  const above = state.owner === source ? state.above : null;
  const read = useCallback(() => readWindow(source, above, height), [source, above, height]);
  const window = useReread(changes, read);
  const { rows } = window;
  const selected = selectedIndex(source, rows, state);
  const shown = { owner: source, above, window };
  return {
    rows,
    above,
    selected,
    selectedRow: rows[selected],
    move: (delta) => actions.move(delta, source, height, shown),
    page: (direction) => actions.page(direction, source, height, shown),
    home: () => actions.home(source, height, shown),
  };
}
