import type { AlertSettings } from '../../alerts/alert-settings.js';
import type { CacheTopic } from '../../cache/index.js';
import type { SettlementConfig } from '../../contract/config.js';
import type { MonitorStatus } from '../../tui/types.js';

/*
 * The messages between the screen's thread (thread.ts) and the session's (worker.ts), both ways.
 */

/** What the session needs to run: the connection, the listener's port and secrets, the alert settings. */
export interface SessionStart {
  type: 'start';
  dbPath: string;
  baseUrl: string;
  apiKey: string;
  auth: 'x-api-key' | 'bearer';
  /** The listener's port (0: any free one) and the secrets it verifies with; null: no listener. */
  listen: { port: number; secrets: string[] } | null;
  /** Desktop notifications (false: `--no-notify`). */
  notify: boolean;
  alerts: AlertSettings;
  settlement?: SettlementConfig;
  intervals: Record<string, number>;
  historyHours: number;
  /** The demo's history fill. */
  fill: boolean;
  /**
   * `retention.detail_days` of a live monitor, pruned once a day of the service's clock (daily-prune.ts); null keeps
   * everything, and the demo's own cache is not pruned (absent).
   */
  detailDays?: number | null;
  /** Where the listener's and the alerts' lines go while the TUI has the screen. */
  logFile: string;
}

export type ToSession = SessionStart | { type: 'refresh' } | { type: 'close' };

/** The parts of the status bar this thread knows. */
export type SessionStatus = Partial<Pick<MonitorStatus, 'connection' | 'listener' | 'fill'>>;

export type FromSession =
  /** Running: the listener's address (registered with the demo's service), or why it is down. */
  | { type: 'started'; listener: { url: string } | null }
  | { type: 'status'; status: SessionStatus }
  /** The service's clock moved from the host's (DESIGN 4 "the monitor's clock"): the screen's clock follows. */
  | { type: 'clock'; offsetMs: number }
  /** Tables this thread committed to (a change event's `table`). */
  | { type: 'changes'; tables: CacheTopic[] }
  /** Another connection committed (another process, or the screen's own writes): any table may have changed. */
  | { type: 'external' }
  | { type: 'failed'; message: string }
  | { type: 'closed' };
