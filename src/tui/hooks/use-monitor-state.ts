import { useMemo, useReducer } from 'react';
import type { BrowseFilter, BrowseTable } from '../../cache/index.js';
import type { KeyBinding, PaneId } from '../keys.js';
import type { BoardSort } from '../panes/board/board-sort.js';
import type { ReplayTarget } from '../state/replay-target.js';
import type { Line } from '../theme.js';

/**
 * A modal over the pane: help, the city chooser, time travel's prompt, or the full detail of a row (of a past day's
 * History row, with where Enter replays it: state/replay-target.ts).
 */
export type Overlay =
  | { kind: 'help' }
  | { kind: 'city' }
  | { kind: 'travel' }
  | {
      kind: 'detail';
      title: string;
      lines: Line[];
      replay?: ReplayTarget & { cityId: string };
      /** A key that shows the row another way (a position's record as stored), named in the header. */
      action?: { binding: KeyBinding; run(): void };
    };

export interface UiState {
  pane: PaneId;
  city: string | null;
  /** `u`: show temperatures in the other unit than the city's market unit. */
  otherUnit: boolean;
  overlay: Overlay | null;
  /** What History browses and its filter, kept across pane switches. */
  historyTable: BrowseTable;
  historyFilter: BrowseFilter;
  /** The board's order (`o`), kept while a city is open on Forecasts. */
  boardSort: BoardSort;
  /** Forecasts shows a city opened from the board (Enter there): Esc goes back to it. */
  openedFromBoard: boolean;
  /** A one-line notice in the status bar (refresh requested, nothing to acknowledge), cleared by the next key. */
  notice: string | null;
}

export type UiAction =
  | { type: 'pane'; pane: PaneId }
  | { type: 'cyclePane'; by: 1 | -1 }
  | { type: 'city'; city: string }
  | { type: 'toggleUnit' }
  | { type: 'overlay'; overlay: Overlay | null }
  | { type: 'historyTable'; table: BrowseTable }
  | { type: 'historyFilter'; filter: BrowseFilter }
  | { type: 'boardSort'; sort: BoardSort }
  | { type: 'openCity'; city: string }
  | { type: 'notice'; text: string | null };

/** The UI's reducer over the panes in `panes`' order (the registry's: Tab goes round it). */
export const uiReducer =
  (panes: readonly PaneId[]) =>
  (state: UiState, action: UiAction): UiState => {
    switch (action.type) {
      case 'pane':
        return state.pane === action.pane ? state : { ...state, pane: action.pane, openedFromBoard: false };
      case 'cyclePane': {
        const i = panes.indexOf(state.pane);
        return {
          ...state,
          pane: panes[(i + action.by + panes.length) % panes.length] as PaneId,
          openedFromBoard: false,
        };
      }
      case 'openCity':
        return { ...state, city: action.city, pane: 'forecasts', overlay: null, openedFromBoard: true };
      case 'city':
        // from Alerts, whose list is of every city, a city chosen is one to look at: the Board with it selected
        return { ...state, city: action.city, overlay: null, ...(state.pane === 'alerts' ? { pane: 'board' } : {}) };
      case 'toggleUnit':
        return { ...state, otherUnit: !state.otherUnit };
      case 'overlay':
        return { ...state, overlay: action.overlay };
      case 'historyTable':
        return { ...state, historyTable: action.table };
      case 'historyFilter':
        return { ...state, historyFilter: action.filter };
      case 'boardSort':
        return { ...state, boardSort: action.sort };
      case 'notice':
        return state.notice === action.text ? state : { ...state, notice: action.text };
    }
  };

export const initialUiState = (city: string | null): UiState => ({
  pane: 'board',
  city,
  otherUnit: false,
  overlay: null,
  historyTable: 'mkta_buckets_history',
  historyFilter: {},
  boardSort: 'time',
  openedFromBoard: false,
  notice: null,
});

/** What components may do to the UI state; stable for the app's life, so dispatch-only components never re-render. */
export interface UiActions {
  showPane(pane: PaneId): void;
  cyclePane(by: 1 | -1): void;
  chooseCity(city: string): void;
  toggleUnit(): void;
  openOverlay(overlay: Overlay): void;
  closeOverlay(): void;
  setHistoryTable(table: BrowseTable): void;
  setHistoryFilter(filter: BrowseFilter): void;
  setBoardSort(sort: BoardSort): void;
  /** The board's Enter: the city on Forecasts, Esc back to the board. */
  openCity(city: string): void;
  notice(text: string | null): void;
}

/** `initialCity` is called once, on the first render; `panes` is the panes' order (panes/pane-registry.ts). */
export function useMonitorState(initialCity: () => string | null, panes: readonly PaneId[]): [UiState, UiActions] {
  const reducer = useMemo(() => uiReducer(panes), [panes]);
  const [state, dispatch] = useReducer(reducer, initialCity, (city) => initialUiState(city()));
  const actions = useMemo<UiActions>(
    () => ({
      showPane: (pane) => dispatch({ type: 'pane', pane }),
      cyclePane: (by) => dispatch({ type: 'cyclePane', by }),
      chooseCity: (city) => dispatch({ type: 'city', city }),
      toggleUnit: () => dispatch({ type: 'toggleUnit' }),
      openOverlay: (overlay) => dispatch({ type: 'overlay', overlay }),
      closeOverlay: () => dispatch({ type: 'overlay', overlay: null }),
      setHistoryTable: (table) => dispatch({ type: 'historyTable', table }),
      setHistoryFilter: (filter) => dispatch({ type: 'historyFilter', filter }),
      setBoardSort: (sort) => dispatch({ type: 'boardSort', sort }),
      openCity: (city) => dispatch({ type: 'openCity', city }),
      notice: (text) => dispatch({ type: 'notice', text }),
    }),
    [],
  );
  return [state, actions];
}
