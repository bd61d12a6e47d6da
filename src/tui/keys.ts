import type { Key } from 'ink';

/**
 * One key binding: which keypress it is, and how the screen names it. The handlers ask `match`, the help overlay
 * lists `help`, a hint line writes `label` and `hint`: a key changed here changes all three.
 */
export interface KeyBinding {
  match(input: string, key: Key): boolean;
  /** The key as a hint line writes it: `a`, `Enter`, `←`. */
  label: string;
  /** What a hint line says it does, after the label. */
  hint?: string;
  /** The help overlay's row: the keys as it lists them, and what they do. None: another binding's row covers it. */
  help?: readonly [keys: string, does: string];
}

export type Bindings = Record<string, KeyBinding>;

const char =
  (c: string): KeyBinding['match'] =>
  (input) =>
    input === c;

const EVERYWHERE = {
  nextPane: {
    label: 'Tab',
    help: ['Tab / Shift-Tab', 'next / previous pane'],
    match: (_, key) => key.tab && !key.shift,
  },
  previousPane: { label: 'Shift-Tab', match: (_, key) => key.tab && key.shift },
  city: { label: 'c', help: ['c', 'choose the city (Forecasts, local time in the status bar)'], match: char('c') },
  unit: { label: 'u', help: ['u', 'temperatures in °F / °C'], match: char('u') },
  refresh: { label: 'r', help: ['r', 'refresh: sync now'], match: char('r') },
  help: { label: '?', hint: 'help', help: ['?', 'this help (Esc or ? closes it)'], match: char('?') },
  quit: { label: 'q', hint: 'quit', help: ['q', 'quit'], match: char('q') },
} satisfies Bindings;

// a pair moving opposite ways shares one help row, written on the first of the two
const LISTS = {
  down: { label: '↓', hint: 'move', help: ['↑ ↓  j k', 'move'], match: (input, key) => key.downArrow || input === 'j' },
  up: { label: '↑', match: (input, key) => key.upArrow || input === 'k' },
  pageDown: {
    label: 'PgDn',
    help: ['PgUp PgDn  Space', 'a page up / down'],
    match: (input, key) => key.pageDown || input === ' ',
  },
  pageUp: { label: 'PgUp', match: (_, key) => key.pageUp },
  home: {
    label: 'g',
    help: ['g  Home', 'back to the top (the newest)'],
    match: (input, key) => key.home || input === 'g',
  },
  detail: {
    label: 'Enter',
    hint: 'detail',
    help: ['Enter', 'full detail of the selected row (legs, reasoning, raw payload)'],
    match: (_, key) => key.return,
  },
  back: { label: 'Esc', hint: 'back', help: ['Esc', 'back'], match: (_, key) => key.escape },
} satisfies Bindings;

const BOARD = {
  sort: {
    label: 'o',
    hint: 'order',
    help: ['o', 'order the board: by latest local time, best edge, city'],
    match: char('o'),
  },
  open: {
    label: 'Enter',
    hint: 'open city',
    help: ['Enter', 'open the city: its Forecasts and payoff by outcome (Esc comes back)'],
    match: (_, key) => key.return,
  },
  snooze: {
    label: 'z',
    hint: 'snooze city',
    help: ['z', 'snooze the selected city: no notification about it for alerts.snooze_minutes'],
    match: char('z'),
  },
} satisfies Bindings;

const ALERTS = {
  acknowledge: {
    label: 'a',
    hint: 'acknowledge',
    help: ['a', 'acknowledge the selected alert'],
    match: char('a'),
  },
  snooze: {
    label: 'z',
    hint: 'snooze city',
    help: ['z', "snooze the selected alert's city: no notification about it for alerts.snooze_minutes"],
    match: char('z'),
  },
  acknowledgeAll: {
    label: 'A',
    hint: 'acknowledge all',
    help: ['A', 'acknowledge every alert shown'],
    match: char('A'),
  },
  board: {
    label: 'b',
    hint: 'board',
    help: ['b', "the Board with the selected alert's city selected (c: a city chosen there, the same)"],
    match: char('b'),
  },
} satisfies Bindings;

const HISTORY = {
  nextTable: {
    label: '→',
    hint: 'table',
    help: ['← →  [ ]', 'previous / next table'],
    match: (input, key) => key.rightArrow || input === ']',
  },
  previousTable: { label: '←', match: (input, key) => key.leftArrow || input === '[' },
  filter: {
    label: '/',
    hint: 'filter',
    help: ['/', 'filter: a city id and/or dates, e.g. "nyc 2026-11-01..2026-11-20"; empty clears'],
    match: char('/'),
  },
  summaries: {
    label: 's',
    hint: 'summaries',
    help: [
      's',
      "summaries: the book's realised P&L and equity curve, strategy P&L and hit rate, fusion-lock hit rate, forecast error",
    ],
    match: char('s'),
  },
} satisfies Bindings;

const POSITIONS = {
  raw: {
    label: 'J',
    hint: 'raw JSON',
    help: ['J', "in a position's detail: the record as stored (raw JSON), and back to its fields"],
    match: char('J'),
  },
} satisfies Bindings;

/**
 * Time travel (DESIGN 3): `t` anywhere opens the prompt for a local date and time; while replaying, the others are
 * heard before the pane's keys (History's ← → step time then, its tables turn with [ ]; Space plays, PgDn pages).
 */
const TRAVEL = {
  open: {
    label: 't',
    hint: 'time travel',
    help: ['t', "time travel: every pane as of a local date and time (the selected city's zone)"],
    match: char('t'),
  },
  later: {
    label: '→',
    hint: '30 min',
    help: ['← →', 'replaying: 30 minutes earlier / later'],
    match: (_, key) => key.rightArrow,
  },
  earlier: { label: '←', match: (_, key) => key.leftArrow },
  play: { label: 'Space', hint: 'play', help: ['Space', 'replaying: play / pause (x60 to start)'], match: char(' ') },
  faster: {
    label: '+',
    hint: 'speed',
    help: ['+ -', 'replaying: play faster / slower'],
    match: char('+'),
  },
  slower: { label: '-', match: char('-') },
  live: {
    label: 'Esc',
    hint: 'now',
    help: ['Esc', 'replaying: back one step (out of an opened city first), then to now (live)'],
    match: (_, key) => key.escape,
  },
  replayDay: {
    label: 'Enter',
    hint: 'replay this day',
    help: ['Enter', "on a History row's detail, of a past day: replay that day from the row's time"],
    match: (_, key) => key.return,
  },
} satisfies Bindings;

/** The city chooser: Enter takes the city; Esc, or the `c` that opened it, goes back. */
const CHOOSER = {
  choose: { label: 'Enter', hint: 'choose', match: (_, key) => key.return },
  close: {
    label: 'Esc',
    hint: 'back',
    match: (input, key) => LISTS.back.match(input, key) || EVERYWHERE.city.match(input, key),
  },
} satisfies Bindings;

/** A one-line prompt (History's filter): every other key types. */
const PROMPT = {
  submit: { label: 'Enter', hint: 'apply', match: (_, key) => key.return },
  cancel: { label: 'Esc', hint: 'cancel', match: (_, key) => key.escape },
  erase: { label: 'Backspace', match: (_, key) => key.backspace || key.delete },
} satisfies Bindings;

/**
 * Each pane's own keys, by pane id: its section of the help, titled with the pane's title (panes/pane-registry.ts).
 * A pane with no keys of its own has an empty section (the lists' keys work on it). These ids are the panes': the
 * registry has one entry for each, and the compiler says which one it misses.
 */
export const PANE_SECTIONS = {
  board: BOARD,
  signals: {},
  positions: POSITIONS,
  alerts: ALERTS,
  forecasts: {},
  history: HISTORY,
} satisfies Record<string, Bindings>;

/** A pane: `1 Board` ... `6 History` (DESIGN 3), in the registry's order. */
export type PaneId = keyof typeof PANE_SECTIONS;

/**
 * Each board strip's own keys, by strip id (a strip is a part of the board under its rows:
 * panes/board/board-strips.tsx): its rows in the help go under the board's section.
 */
export const STRIP_SECTIONS = { detail: {} } satisfies Record<string, Bindings>;

/** A board strip. */
export type StripId = keyof typeof STRIP_SECTIONS;

/** Every key binding of the monitor, by where it works. */
export const KEYS = {
  everywhere: EVERYWHERE,
  lists: LISTS,
  ...PANE_SECTIONS,
  travel: TRAVEL,
  chooser: CHOOSER,
  prompt: PROMPT,
};

/** A binding as a hint line writes it: `a acknowledge`; `word` when this place says it otherwise (`Enter row`). */
export const hintOf = (binding: KeyBinding, word = binding.hint ?? ''): string => `${binding.label} ${word}`;

const MOVES = ['down', 'up', 'pageDown', 'pageUp', 'home'] as const;
export type ListMove = (typeof MOVES)[number];

/** The movement keys every list and document shares: arrows and j/k, PgUp/PgDn (and space), Home and g. */
export function listMove(input: string, key: Key): ListMove | null {
  return MOVES.find((move) => LISTS[move].match(input, key)) ?? null;
}
