import type { Cache } from '../../cache/cache.js';

/**
 * Cache change events, coalesced: a busy sync commits a page at a time, and re-querying every pane per commit would
 * redraw the screen dozens of times a second. Changed tables are collected and released together at most once per
 * `coalesceMs`; each release bumps the version of the tables that changed.
 */
export class ChangeHub {
  private readonly versions = new Map<string, number>();
  private readonly pending = new Set<string>();
  private readonly listeners = new Set<() => void>();
  private timer: NodeJS.Timeout | undefined;
  private detach: (() => void) | undefined;
  /** Releases so far (for tests: a burst of commits is one release). */
  releases = 0;

  constructor(
    private readonly cache: Cache,
    private readonly coalesceMs: number,
  ) {}

  start(): void {
    this.detach ??= this.cache.onChange((event) => {
      this.pending.add(event.table);
      this.timer ??= setTimeout(() => this.release(), this.coalesceMs);
    });
  }

  stop(): void {
    this.detach?.();
    this.detach = undefined;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  };

  /** A number that changes whenever one of `tables` changed (`historical/*` matches every historical table). */
  version(tables: readonly string[]): number {
    let sum = 0;
    for (const [table, v] of this.versions) if (tables.some((t) => matches(t, table))) sum += v;
    return sum;
  }

  private release(): void {
    this.timer = undefined;
    for (const table of this.pending) this.versions.set(table, (this.versions.get(table) ?? 0) + 1);
    this.pending.clear();
    this.releases++;
    for (const listener of [...this.listeners]) listener();
  }
}

const matches = (pattern: string, table: string) =>
  pattern.endsWith('/*') ? table.startsWith(pattern.slice(0, -1)) : pattern === table;
