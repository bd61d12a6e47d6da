import { useMemo } from 'react';
import { useKeysetWindowState } from './use-keyset-window-state.js';

/**
 * A list read by keyset: `older` continues after a key, `newer` goes back before one (nearest first). The window
 * asks only for the rows it shows (plus one to know whether more follow), so its cost does not grow with the list.
 */
export interface KeysetSource<Row, Key> {
  older(after: Key | null, limit: number): Row[];
  newer(before: Key, limit: number): Row[];
  keyOf(row: Row): Key;
}

export interface KeysetWindow<Row> {
  rows: Row[];
  selected: number;
  selectedRow: Row | undefined;
  move(delta: 1 | -1): void;
  page(direction: 1 | -1): void;
  home(): void;
}

/** A windowed view of `source`, `height` rows tall, re-read whenever `version` changes. */
export function useKeysetWindow<Row, Key>(
  source: KeysetSource<Row, Key>,
  height: number,
  version: unknown,
): KeysetWindow<Row> {
  const [state, actions] = useKeysetWindowState<Key>();
  const above = state.owner === source ? state.above : null;
  // one row more than shown says whether more follow, without a second query
  // biome-ignore lint/correctness/useExhaustiveDependencies: version is the cache's change counter: a new version re-reads
  const read = useMemo(() => (height > 0 ? source.older(above, height + 1) : []), [source, above, height, version]);
  const rows = read.length > height ? read.slice(0, height) : read;
  const moreBelow = read.length > rows.length;
  const selected = Math.max(0, Math.min(state.owner === source ? state.selected : 0, rows.length - 1));
  const keyAt = (i: number) => {
    const row = rows[i];
    return row === undefined ? null : source.keyOf(row);
  };

  return {
    rows,
    selected,
    selectedRow: rows[selected],
    move(delta) {
      if (delta > 0) {
        if (selected < rows.length - 1) actions.select(source, selected + 1);
        else if (moreBelow) actions.anchor(source, keyAt(0), selected);
        return;
      }
      if (selected > 0) actions.select(source, selected - 1);
      else if (above !== null) actions.anchor(source, keyOrNull(source, source.newer(above, 1)[0]), 0);
    },
    page(direction) {
      if (direction > 0) {
        if (moreBelow) actions.anchor(source, keyAt(rows.length - 1), selected);
        else actions.select(source, rows.length - 1);
        return;
      }
      if (above === null) {
        actions.select(source, 0);
        return;
      }
      // the row keyed `above` is the first row above the window; the new window ends with it
      const before = source.newer(above, height);
      actions.anchor(source, keyOrNull(source, before[height - 1]), selected);
    },
    home() {
      actions.anchor(source, null, 0);
    },
  };
}

const keyOrNull = <Row, Key>(source: KeysetSource<Row, Key>, row: Row | undefined): Key | null =>
  row === undefined ? null : source.keyOf(row);
