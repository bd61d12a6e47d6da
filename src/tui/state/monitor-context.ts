import { createContext, useContext } from 'react';
import type { Cache } from '../../cache/index.js';
import type { SettlementConfig } from '../../contract/config.js';
import type { UiActions, UiState } from '../hooks/use-monitor-state.js';
import type { MonitorSource } from '../types.js';
import type { ChangeHub } from './change-hub.js';

/** What every pane needs and nothing changes during the app's life. */
export interface MonitorDeps {
  cache: Cache;
  source: MonitorSource;
  now: () => Date;
  /** The service's clock less this machine's (ms), as the market's clock last read it; null: unknown. */
  clockOffsetMs: () => number | null;
  onRefresh?: () => void;
  hub: ChangeHub;
  intervals: Readonly<Record<string, number>>;
  colour: boolean;
  tickMs: number;
  /** How long `z` snoozes a city's notifications, in minutes. */
  snoozeMinutes: number;
  /** The config's `settlement`: each city's rule (metar_c when absent). */
  settlement: SettlementConfig;
  /** The config's `alerts.edge_min`: the board's record and time travel's trader alerts take trades at it. */
  edgeMin: number;
}

export const DepsContext = createContext<MonitorDeps | null>(null);
/** State and actions apart: a component that only dispatches does not re-render when the state changes. */
export const UiStateContext = createContext<UiState | null>(null);
export const UiActionsContext = createContext<UiActions | null>(null);

function need<T>(value: T | null, what: string): T {
  if (value === null) throw new Error(`${what} used outside MonitorApp`);
  return value;
}

export const useDeps = (): MonitorDeps => need(useContext(DepsContext), 'useDeps');
export const useUiState = (): UiState => need(useContext(UiStateContext), 'useUiState');
export const useUiActions = (): UiActions => need(useContext(UiActionsContext), 'useUiActions');
