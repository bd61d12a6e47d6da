import { useEffect } from 'react';
import type { KeysetStrip } from '../state/keyset-strip.js';
import { type KeysetWindow, useKeysetWindow } from './use-keyset-window.js';

/**
 * A list pane's window over its store's stretch (state/keyset-store.ts), `height` rows tall, the rows either side of
 * it read in the background (`margin`) so that a move or a page draws from memory. The window reads the
 * stretch again when what it kept was read again (a refresh in, a stretch replaced): the strip is its store, and while
 * it is watched it reads its rows again in the background when its list changes.
 */
export function useStripWindow<Row, Key>(
  strip: KeysetStrip<Row, Key>,
  height: number,
  /** Rows kept either side of the window before the next are read in the background (twice this a read). */
  margin = height,
): KeysetWindow<Row, Key> {
  const list = useKeysetWindow(strip, height, strip);
  // after each commit: the list changed while the pane was away or since the last render (read again in the
  // background; nothing to do when it did not), and the next pages either side of the window
  useEffect(() => strip.refresh());
  const { above } = list;
  useEffect(() => strip.prefetch(above, height, margin), [strip, above, height, margin]);
  return list;
}
