import { describe, expect, it } from 'vitest';
import { KEYS } from '../../src/tui/keys.js';
import { BoardPane } from '../../src/tui/panes/board/board-pane.js';
import { boardStore } from '../../src/tui/panes/board/use-board-state.js';
import { definePane, defineStrip, stripRows } from '../../src/tui/panes/pane-entry.js';
import {
  HELP_SECTIONS,
  PANE_BENCH_KEYS,
  PANE_REGISTRY,
  PANE_TITLES,
  PANES,
  paneOfKey,
  REGISTRY_STORES,
} from '../../src/tui/panes/pane-registry.js';

// The registry refuses, at compile time (`npm run typecheck` covers this file), a pane that misses a part: each
// `@ts-expect-error` below fails the type check the day the line under it compiles.
const parts = {
  id: 'board',
  title: 'Board',
  view: BoardPane,
  store: boardStore,
  warm: false,
  keys: KEYS.board,
  bench: { keys: ['j'] },
} as const;
const { store: _store, ...withoutStore } = parts;
const { view: _view, ...withoutView } = parts;
const { keys: _keys, ...withoutKeys } = parts;
// @ts-expect-error a pane without a store does not compile
definePane(withoutStore);
// @ts-expect-error nor one without a view
definePane(withoutView);
// @ts-expect-error nor one without its keys section
definePane(withoutKeys);
// @ts-expect-error nor a pane with no section in keys.ts (its id is not a pane's)
definePane({ ...parts, id: 'orders' });
const { store: _stripStore, ...stripWithoutStore } = {
  id: 'detail',
  view: () => null,
  store: boardStore,
  warm: false,
  keys: {},
  minRows: 3,
  bench: { keys: [] },
};
// @ts-expect-error a board strip without a store does not compile either
defineStrip(stripWithoutStore);

describe('the pane registry', () => {
  it("keeps DESIGN 3's panes, numbers and titles: 1 Board ... 6 History", () => {
    expect(PANES.map((id, i) => `${i + 1} ${PANE_TITLES[id]}`)).toEqual([
      '1 Board',
      '2 Signals',
      '3 Positions',
      '4 Alerts',
      '5 Forecasts',
      '6 History',
    ]);
    expect(['1', '5', '6', '7', '0', 'x'].map(paneOfKey)).toEqual(['board', 'forecasts', 'history', null, null, null]);
  });

  it('names each pane once, and each store once', () => {
    expect(new Set(PANES).size).toBe(6);
    expect(new Set(REGISTRY_STORES.map((s) => s.store)).size).toBe(REGISTRY_STORES.length);
  });

  it('lists the number keys in the help, and each pane with keys of its own under its title, in tab order', () => {
    expect(HELP_SECTIONS.map(([title]) => title)).toEqual([
      'Everywhere',
      'Lists and pages',
      'Board',
      'Positions',
      'Alerts',
      'History',
      'Time travel',
    ]);
    const everywhere = HELP_SECTIONS[0]?.[1] ?? {};
    expect(Object.values(everywhere).map((b) => b.help?.[0])).toContain('1 2 3 4 5 6');
    expect(everywhere.panes?.help?.[1]).toBe('Board, Signals, Positions, Alerts, Forecasts, History');
  });

  it("gives the benchmark each pane's keys from its entry", () => {
    expect(PANE_BENCH_KEYS.map((p) => p.pane)).toEqual(PANES);
    expect(PANE_BENCH_KEYS.find((p) => p.pane === 'alerts')?.keys).toEqual(['j', 'k', 'a']);
    expect(PANE_REGISTRY.find((p) => p.id === 'history')?.bench).toHaveProperty('first');
  });
});

describe("the board's free rows", () => {
  const detail = { id: 'detail', minRows: 6 };
  const venues = { id: 'venues', minRows: 3 };

  it('go to the strips in order, each its fewest rows, the rest to the first', () => {
    // 12 free: detail 6 + venues 3 = 9, the 3 left to the detail: 9 and 3
    expect(stripRows([detail, venues], 12).map((s) => [s.strip.id, s.rows])).toEqual([
      ['detail', 9],
      ['venues', 3],
    ]);
  });

  it('leave out a strip they cannot hold, and keep one after it that fits', () => {
    // 5 free: the detail needs 6, so it is left out; the venues take 3, and the 2 left too
    expect(stripRows([detail, venues], 5).map((s) => [s.strip.id, s.rows])).toEqual([['venues', 5]]);
    expect(stripRows([detail, venues], 2)).toEqual([]);
    expect(stripRows([detail], -1)).toEqual([]);
  });
});
