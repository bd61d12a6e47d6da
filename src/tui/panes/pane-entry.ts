import type { ComponentType } from 'react';
import type { BoardRow } from '../../board/board-row.js';
import type { City } from '../../contract/cities.js';
import type { Bindings, PANE_SECTIONS, PaneId } from '../keys.js';
import type { StoreFactory } from './pane-stores.js';

/** What every pane's view is drawn with: the room it has and the cities cached. */
export interface PaneViewProps {
  width: number;
  height: number;
  cities: readonly City[];
}

/**
 * What the TUI benchmark does on a pane or strip (bench/tui-render.ts): `first`, keys of its first visit only, after
 * its number key; `keys`, keys of every visit.
 */
export interface BenchKeys {
  first?: readonly string[];
  keys: readonly string[];
}

/**
 * One pane, everything about it that is not in its folder: the registry (pane-registry.ts) is a list of these, and
 * the tab bar, the number keys, the help, the stores' warm and stop and the benchmark are worked out from it. Every
 * part is required: an entry missing one does not compile.
 */
export interface PaneEntry<Id extends PaneId = PaneId> {
  id: Id;
  /** Its name on the tab bar and over its keys in the help (DESIGN 3's). */
  title: string;
  view: ComponentType<PaneViewProps>;
  /** Its store's factory (in its folder): the same function its state hook looks the store up with. */
  store: StoreFactory;
  /** Read in the background before it is first shown, so its key draws it from memory. */
  warm: boolean;
  /** Its section of keys.ts (`PANE_SECTIONS[id]`). */
  keys: (typeof PANE_SECTIONS)[Id];
  bench: BenchKeys;
}

/** An entry of the registry, its keys section checked against its id. */
export const definePane = <Id extends PaneId>(entry: PaneEntry<Id>): PaneEntry<Id> => entry;

/** What a board strip is drawn with: its room under the board's rows, the cities, and the board's selected row. */
export interface StripViewProps extends PaneViewProps {
  selected: BoardRow | undefined;
}

/**
 * A board strip: a part of the Board drawn in the rows its cities leave free (the selected city's detail first).
 * Like a pane, a folder of its own (`panes/board/<strip>/`) and an entry here; it shows only when the free rows give
 * it `minRows`, and its keys are heard while the board shows (their help rows go under the board's).
 */
export interface StripEntry<Id extends string = string> {
  id: Id;
  view: ComponentType<StripViewProps>;
  store: StoreFactory;
  warm: boolean;
  /** Its section of keys.ts (`STRIP_SECTIONS[id]`). */
  keys: Bindings;
  /** The fewest rows it is drawn in: below them it is not drawn at all. */
  minRows: number;
  /** Keys the benchmark presses on the board for it. */
  bench: BenchKeys;
}

export const defineStrip = <Id extends string>(entry: StripEntry<Id>): StripEntry<Id> => entry;

/**
 * The rows each strip gets of `free` rows under the board, in the strips' order: each that fits gets its fewest,
 * then the first shown takes what is left (the detail grows with the terminal); one that does not fit is left out,
 * and the ones after it may still fit.
 */
export function stripRows<S extends Pick<StripEntry, 'minRows'>>(
  strips: readonly S[],
  free: number,
): { strip: S; rows: number }[] {
  const shown: { strip: S; rows: number }[] = [];
  let left = Math.max(0, free);
  for (const strip of strips) {
    if (strip.minRows > left) continue;
    shown.push({ strip, rows: strip.minRows });
    left -= strip.minRows;
  }
  const first = shown[0];
  if (first) first.rows += left;
  return shown;
}
