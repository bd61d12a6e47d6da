import { useMemo } from 'react';
import { type KeysetSource, readWindow, useKeysetWindowState } from './use-keyset-window-state.js';

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
 * A windowed view of `source`, `height` rows tall, re-read whenever `version` changes. Its keys are worked out from
 * the window's state when they arrive (use-keyset-window-state.ts), so none is lost to a render not yet drawn.
 */
export function useKeysetWindow<Row, Key>(
  source: KeysetSource<Row, Key>,
  height: number,
  version: unknown,
): KeysetWindow<Row, Key> {
  const [state, actions] = useKeysetWindowState<Row, Key>();
  const above = state.owner === source ? state.above : null;
  // biome-ignore lint/correctness/useExhaustiveDependencies: version is the cache's change counter: a new version re-reads
  const window = useMemo(() => readWindow(source, above, height), [source, above, height, version]);
  const { rows } = window;
  const selected = Math.max(0, Math.min(state.owner === source ? state.selected : 0, rows.length - 1));
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
