import type { StreamOutcome } from '../sync/sync-engine.js';
import type { MonitorSource, MonitorStatus } from '../tui/types.js';

/** No webhook listener: the status a monitor started without `--listen` reports. */
export const NO_LISTENER: MonitorStatus['listener'] = { state: 'off', accepted: 0, duplicates: 0, rejected: 0 };

/**
 * The monitor's live status for the TUI (connection, listener), read through useSyncExternalStore: each change
 * makes a new object, so the status bar re-renders exactly when something changed.
 */
export class MonitorStatusStore implements MonitorSource {
  private status: MonitorStatus;
  private readonly watchers = new Set<() => void>();

  constructor(initial: MonitorStatus) {
    this.status = initial;
  }

  getStatus = (): MonitorStatus => this.status;

  subscribe = (onChange: () => void): (() => void) => {
    this.watchers.add(onChange);
    return () => this.watchers.delete(onChange);
  };

  update(change: (status: MonitorStatus) => MonitorStatus): void {
    const next = change(this.status);
    if (JSON.stringify(next) === JSON.stringify(this.status)) return;
    this.status = next;
    for (const watcher of this.watchers) watcher();
  }
}

/**
 * The connection as the sync passes found it, stream by stream: `connecting` until one answered; `unreachable`
 * while the newest pass got no answer at all; `failing` while some stream's newest pass failed although the service
 * answers (a refused request, a response that broke the contract); `ok` otherwise. A rejected key is the session's
 * to report: the engine stops on it.
 */
export class ConnectionTracker {
  private lastGoodAt?: string;
  private unreachable?: string;
  private readonly failing = new Map<string, string>();

  record(outcome: StreamOutcome, at: string): MonitorStatus['connection'] {
    const { stream, counts, error } = outcome;
    // counts beside an error: some of the stream's requests were answered and stored
    // to the second, as shown: passes ending within one second change nothing on screen, and re-render nothing
    if (counts) this.lastGoodAt = `${at.slice(0, 19)}Z`;
    if (error?.kind === 'unreachable' && !counts) {
      this.unreachable = error.error;
    } else {
      this.unreachable = undefined;
      if (error) this.failing.set(stream, error.error);
      else this.failing.delete(stream);
    }
    return this.current();
  }

  current(): MonitorStatus['connection'] {
    const lastGoodAt = this.lastGoodAt === undefined ? {} : { lastGoodAt: this.lastGoodAt };
    if (this.unreachable !== undefined) return { state: 'unreachable', message: this.unreachable, ...lastGoodAt };
    const [failing] = this.failing;
    if (failing) return { state: 'failing', message: `${failing[0]}: ${failing[1]}`, ...lastGoodAt };
    return this.lastGoodAt === undefined ? { state: 'connecting' } : { state: 'ok', ...lastGoodAt };
  }
}
