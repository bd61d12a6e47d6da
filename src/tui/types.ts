import type { Cache, CacheTopic } from '../cache/index.js';
import type { SettlementConfig } from '../contract/config.js';

/** What the monitor is connected to, as the CLI knows it; the TUI only shows it. */
export interface MonitorStatus {
  mode: 'live' | 'demo' | 'offline';
  host: string | null;
  /**
   * `connecting` until the service answered a pass; then `ok`, `failing` (it answers, some stream fails),
   * `unreachable` or `auth-rejected`. `lastGoodAt`: when a pass last got a good answer (ISO), if ever.
   */
  connection: {
    state: 'connecting' | 'ok' | 'failing' | 'auth-rejected' | 'unreachable' | 'offline';
    message?: string;
    lastGoodAt?: string;
  };
  listener: {
    state: 'off' | 'listening' | 'down';
    url?: string;
    accepted: number;
    duplicates: number;
    rejected: number;
  };
  /** The demo's history fill (absent elsewhere): which table it drains, how far it got, or why it stopped. */
  fill?: {
    state: 'filling' | 'done' | 'failed';
    table: string | null;
    tablesDone: number;
    tables: number;
    rows: number;
    message?: string;
  };
  /** The demo's embedded service: its account pages and where their sign-in token is kept (the help shows both). */
  accountPages?: { url: string; tokenFile: string };
}

/**
 * The CLI's live status, read with useSyncExternalStore: `getStatus` must return the same object until something
 * changed, and `subscribe` calls `onChange` after each change.
 */
export interface MonitorSource {
  getStatus(): MonitorStatus;
  subscribe(onChange: () => void): () => void;
  /**
   * Commits to the cache that the TUI's connection does not announce itself: the tables another connection of this
   * process committed to (the session's thread: sync, listener, alerts), or null when any table may have changed
   * (another process). Given, the TUI relies on it; without it, the TUI looks for other connections' commits itself
   * (SQLite's data_version, once a second).
   */
  subscribeCacheChanges?(onChange: (tables: readonly CacheTopic[] | null) => void): () => void;
}

/** Ink's own measure of one render (layout and output), as `render`'s `onRender` reports it. */
export interface RenderInfo {
  renderTime: number;
}

export interface MonitorOptions {
  cache: Cache;
  source: MonitorSource;
  initialCity?: string;
  /** `r`: the CLI runs a sync pass now. */
  onRefresh?: () => void;
  /** The clock of the status bar, of stream ages and of "today" (tests and demo pass their own). */
  now?: () => Date;
  /** How far the service's clock runs from this machine's (ms; null: unknown): the status bar names it over 5 s. */
  clockOffsetMs?: () => number | null;
  stdout?: NodeJS.WriteStream;
  stdin?: NodeJS.ReadStream;
  /** Called after every render with Ink's render time (for benchmarks). */
  onRender?: (info: RenderInfo) => void;
  /** Poll intervals by stream (ms) when the CLI configured others than the defaults: staleness is relative. */
  streamIntervalsMs?: Record<string, number>;
  /** Ink's console patching (default true: other layers' console output is printed above the UI, not through it). */
  patchConsole?: boolean;
  /** How long `z` snoozes a city's notifications (config `alerts.snooze_minutes`, default 60). */
  snoozeMinutes?: number;
  /** The config's `settlement`: each city's rule, by which the board, Forecasts and History price buckets. */
  settlement?: SettlementConfig;
  /** The config's `alerts.edge_min` (default 0.08): the board's record and time travel's trader alerts use it. */
  edgeMin?: number;
  /** `--at`: start time travelling at this instant (epoch ms, checked against the cache's span by the CLI). */
  replayAt?: number;
}

/** MonitorApp's props: the options without the streams, plus what tests tune. */
export interface MonitorAppProps {
  cache: Cache;
  source: MonitorSource;
  initialCity?: string;
  onRefresh?: () => void;
  now?: () => Date;
  /** How far the service's clock runs from this machine's (ms; null: unknown): the status bar names it over 5 s. */
  clockOffsetMs?: () => number | null;
  streamIntervalsMs?: Record<string, number>;
  /** Cache change events are coalesced: the panes re-query at most once in this many ms (default 150). */
  coalesceMs?: number;
  /** Colour off (default: the NO_COLOR convention, read from the environment). */
  noColor?: boolean;
  /** How often the clock ticks (default 1000 ms). */
  tickMs?: number;
  /** How long `z` snoozes a city's notifications (config `alerts.snooze_minutes`, default 60). */
  snoozeMinutes?: number;
  /** The config's `settlement`: each city's rule, by which the board, Forecasts and History price buckets. */
  settlement?: SettlementConfig;
  /** The config's `alerts.edge_min` (default 0.08): the board's record and time travel's trader alerts use it. */
  edgeMin?: number;
  /** `--at`: start time travelling at this instant (epoch ms, checked against the cache's span by the CLI). */
  replayAt?: number;
}
