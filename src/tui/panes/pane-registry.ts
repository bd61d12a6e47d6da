import { BROWSE_TABLES } from '../../cache/index.js';
import { type Bindings, KEYS, type KeyBinding, type PaneId } from '../keys.js';
import { AlertsPane } from './alerts/alerts-pane.js';
import { alertsStore } from './alerts/alerts-store.js';
import { BoardPane } from './board/board-pane.js';
import { BOARD_STRIPS } from './board/board-strips.js';
import { boardStore } from './board/use-board-state.js';
import { ForecastsPane } from './forecasts/forecasts-pane.js';
import { forecastsStore } from './forecasts/use-forecasts-state.js';
import { HistoryPane } from './history/history-pane.js';
import { historyStore } from './history/history-store.js';
import { definePane, type PaneEntry } from './pane-entry.js';
import type { StoreEntry } from './pane-stores.js';
import { PositionsPane } from './positions/positions-pane.js';
import { positionsStore } from './positions/use-positions-state.js';
import { SignalsPane } from './signals/signals-pane.js';
import { signalsStore } from './signals/use-signals-state.js';

/** The PgDn key as a terminal sends it (the benchmark presses it). */
const PAGE_DOWN = '\u001b[6~';
/** History opens on mkta_buckets_history; the 1M-row table is metar_observations_history, this many tables back. */
const TO_METAR = BROWSE_TABLES.indexOf('mkta_buckets_history') - BROWSE_TABLES.indexOf('metar_observations_history');

/**
 * Every pane, in the tab bar's order: its number key is its place (DESIGN 3: `1 Board` ... `6 History`). A new pane is
 * a folder (its view, its state hook with its store's factory, its keys' hook, its read), one entry here, and its
 * section of keys.ts; the rest is worked out below.
 */
export const PANE_REGISTRY = [
  definePane({
    id: 'board',
    title: 'Board',
    view: BoardPane,
    store: boardStore,
    warm: false,
    keys: KEYS.board,
    // down the cities, each of the three orders and back to the first, up again
    bench: { keys: [...'jjj', 'o', 'o', 'o', ...'kk'] },
  }),
  definePane({
    id: 'signals',
    title: 'Signals',
    view: SignalsPane,
    store: signalsStore,
    warm: true,
    keys: KEYS.signals,
    // scroll the feed within the window, page past it (a new keyset read), back to the top
    bench: { keys: [...'jjjjj', PAGE_DOWN, PAGE_DOWN, ...'kkk', 'g'] },
  }),
  definePane({
    id: 'positions',
    title: 'Positions',
    view: PositionsPane,
    store: positionsStore,
    warm: true,
    keys: KEYS.positions,
    bench: { keys: [...'jjjjj', PAGE_DOWN, ...'kk', 'g'] },
  }),
  definePane({
    id: 'alerts',
    title: 'Alerts',
    view: AlertsPane,
    store: alertsStore,
    warm: true,
    keys: KEYS.alerts,
    // `a` with nothing to acknowledge says so in the status bar: a frame in both caches
    bench: { keys: [...'jk', 'a'] },
  }),
  definePane({
    id: 'forecasts',
    title: 'Forecasts',
    view: ForecastsPane,
    store: forecastsStore,
    warm: true,
    keys: KEYS.forecasts,
    // scroll the page, the other unit and back
    bench: { keys: [...'jjj', PAGE_DOWN, 'g', 'u', 'u'] },
  }),
  definePane({
    id: 'history',
    title: 'History',
    view: HistoryPane,
    store: historyStore,
    warm: false,
    keys: KEYS.history,
    // to the 1M-row table, page deep into it, scroll; then the next table and back
    bench: { first: Array(TO_METAR).fill('['), keys: [...Array(4).fill(PAGE_DOWN), ...'jjjkk', ']', '['] },
  }),
] as const;

// every pane of keys.ts has its entry: a pane id with none names itself here
const everyPaneListed: Record<Exclude<PaneId, (typeof PANE_REGISTRY)[number]['id']>, never> = {};
void everyPaneListed;

/** The panes' ids in the tab bar's order. */
export const PANES: readonly PaneId[] = PANE_REGISTRY.map((p) => p.id);

/** Each pane's entry by its id. */
export const PANE_BY_ID = Object.fromEntries(PANE_REGISTRY.map((p) => [p.id, p])) as {
  [Id in PaneId]: PaneEntry<Id>;
};

export const PANE_TITLES = Object.fromEntries(PANE_REGISTRY.map((p) => [p.id, p.title])) as Record<PaneId, string>;

/** The landing pane: the first (the Board). */
export const FIRST_PANE: PaneId = PANE_REGISTRY[0].id;

/** A digit key: the pane of that number, or null. */
export function paneOfKey(input: string): PaneId | null {
  const digit = Number(input);
  return input.length === 1 && digit >= 1 && digit <= PANES.length ? (PANES[digit - 1] as PaneId) : null;
}

/** The number keys, as the help lists them: `1 2 3 4 5 6` and the panes' titles. */
export const PANE_NUMBER_KEYS: KeyBinding = {
  label: PANES.map((_, i) => i + 1).join(' '),
  help: [PANES.map((_, i) => i + 1).join(' '), PANES.map((p) => PANE_TITLES[p]).join(', ')],
  match: (input) => paneOfKey(input) !== null,
};

/**
 * The help overlay's sections, in order: the keys that work everywhere (the number keys after Tab's), the lists',
 * each pane's own under its title (the board's strips' with the board's; a pane with none has no section), time
 * travel's. The chooser's and the prompt's keys are written on their own line.
 */
const { nextPane, ...everywhere } = KEYS.everywhere;
export const HELP_SECTIONS: readonly (readonly [title: string, bindings: Bindings])[] = [
  ['Everywhere', { nextPane, panes: PANE_NUMBER_KEYS, ...everywhere }],
  ['Lists and pages', KEYS.lists],
  ...PANE_REGISTRY.flatMap((p): (readonly [string, Bindings])[] => {
    const bindings: Bindings = p.id === 'board' ? { ...p.keys, ...stripKeys() } : p.keys;
    return Object.keys(bindings).length === 0 ? [] : [[p.title, bindings]];
  }),
  ['Time travel', KEYS.travel],
];

function stripKeys(): Bindings {
  return Object.assign({}, ...BOARD_STRIPS.map((s) => s.keys));
}

/** Every store the registry names, the board strips' included: made by the app, warmed and stopped together. */
export const REGISTRY_STORES: readonly StoreEntry[] = [...PANE_REGISTRY, ...BOARD_STRIPS];

/** What the TUI benchmark presses on each pane (bench/tui-render.ts): the board's strips' keys with the board's. */
export const PANE_BENCH_KEYS: { pane: PaneId; first?: readonly string[]; keys: readonly string[] }[] =
  PANE_REGISTRY.map((p) => ({
    pane: p.id,
    first: p.bench.first,
    keys: p.id === 'board' ? [...p.bench.keys, ...BOARD_STRIPS.flatMap((s) => s.bench.keys)] : p.bench.keys,
  }));
