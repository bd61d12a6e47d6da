import type { MonitorSource, MonitorStatus } from '../tui/types.js';

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
