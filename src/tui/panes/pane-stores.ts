import { createContext, useContext } from 'react';
import type { BoardRow } from '../../board/board-row.js';
import { type Cache, FEED_READ_TOPICS, type FeedKey, type Signal } from '../../cache/index.js';
import type { ChangeHub } from '../state/change-hub.js';
import { KeysetStore } from '../state/keyset-store.js';
import { type PaneInputs, PaneStore } from '../state/pane-store.js';
import { ReplayTraderAlerts } from '../state/replay-trader-alerts.js';
import type { Line } from '../theme.js';
import { BOARD_STORE, type BoardInputs, type BoardParams } from './board/board-read.js';
import type { ForecastData, ForecastParams } from './forecasts/forecast-read.js';
import { FORECASTS_STORE } from './forecasts/forecasts-store.js';
import { HISTORY_STORE, type SummaryInputs, type SummaryParams } from './history/history-summaries.js';
import { POSITIONS_STORE, type PositionsParams, type PricedBook } from './positions/positions-model.js';
import { feedAt } from './signals/feed-list.js';

/**
 * The panes' stores of one running monitor, created by the app with its change hub and provided through context:
 * only the pane shown is mounted, and each store keeps what its pane read while the monitor runs, so the key that
 * shows a pane draws it from memory. Alerts and History list rows a window at a time from the cache (their lists change
 * with every alert and every filter); what they work out is in their stores.
 */
export interface PaneStores {
  board: PaneStore<BoardParams, BoardRow[], BoardInputs>;
  signals: KeysetStore<Signal, FeedKey>;
  positions: PaneStore<PositionsParams, PricedBook>;
  /** Time travel's trader alerts: the rules' steps run, kept between visits (Alerts). */
  alerts: ReplayTraderAlerts;
  forecasts: PaneStore<ForecastParams, ForecastData | null>;
  /** History's summaries (`s`), read when opened; its tables' rows are read a window at a time, never kept. */
  history: PaneStore<SummaryParams, Line[], SummaryInputs>;
  /** Reads the panes not shown yet in the background, live (components/prewarm.tsx). */
  warm(inputs: PaneInputs): () => void;
  /** Stops their background reads: the monitor ends. */
  stop(): void;
}

export function createPaneStores(hub: ChangeHub, cache: Cache): PaneStores {
  const board = new PaneStore(hub, BOARD_STORE);
  const signals = new KeysetStore(hub, FEED_READ_TOPICS, (atMs) => feedAt(cache, atMs));
  const positions = new PaneStore(hub, POSITIONS_STORE);
  const forecasts = new PaneStore(hub, FORECASTS_STORE);
  const history = new PaneStore(hub, HISTORY_STORE);
  return {
    board,
    signals,
    positions,
    alerts: new ReplayTraderAlerts(),
    forecasts,
    history,
    warm(inputs) {
      // the board is the first pane: its own render reads it
      positions.warm(cache, inputs);
      signals.warm(inputs);
      return forecasts.warm(cache, inputs);
    },
    stop() {
      for (const store of [board, signals, positions, forecasts, history]) store.stop();
    },
  };
}

export const PaneStoresContext = createContext<PaneStores | null>(null);

/** The running monitor's pane stores. */
export function usePaneStores(): PaneStores {
  const stores = useContext(PaneStoresContext);
  if (stores === null) throw new Error('usePaneStores used outside MonitorApp');
  return stores;
}
