import type { Cache, CacheTopic } from '../../cache/index.js';
import type { MonitorSource } from '../types.js';

/**
 * Cache change events, coalesced: a busy sync commits a page at a time, and re-querying every pane per commit would
 * redraw the screen dozens of times a second. Changed tables are collected and released together `coalesceMs` after
 * the first; each release bumps the version of the tables that changed. A change within `BURST_MS` of the last
 * release waits until `BURST_MS` after it: a fill or a backfill commits pages for many seconds, and the panes' reads
 * of each release took the cores its writer needed (docs/benchmarks.md, the demo's history fill).
 */
export class ChangeHub {
  private readonly versions = new Map<CacheTopic, number>();
  private readonly pending = new Set<CacheTopic | typeof EXTERNAL>();
  private readonly listeners = new Set<() => void>();
  private timer: NodeJS.Timeout | undefined;
  private detach: (() => void) | undefined;
  private unwatch: (() => void) | undefined;
  /** Commits by other processes seen so far: they could have changed any table. */
  private external = 0;
  /** Releases so far (for tests: a burst of commits is one release). */
  releases = 0;
  private releasedAt = Number.NEGATIVE_INFINITY;
  private detachOthers: (() => void) | undefined;

  /**
   * `others`: the commits of the cache's other connections, when someone announces them (the session's thread, see
   * MonitorSource); without it, they are looked for once a second.
   */
  constructor(
    private readonly cache: Pick<Cache, 'onChange' | 'watchDataVersion'>,
    private readonly coalesceMs: number,
    private readonly others?: MonitorSource['subscribeCacheChanges'],
  ) {}

  start(): void {
    this.detach ??= this.cache.onChange((event) => this.note(event.table));
    if (this.others) {
      this.detachOthers ??= this.others((tables) => {
        if (tables === null) this.note(EXTERNAL);
        else for (const table of tables) this.note(table);
      });
      return;
    }
    // a `sync` or `listen` in another process writes the same file without telling this one
    this.unwatch ??= this.cache.watchDataVersion(() => this.note(EXTERNAL), EXTERNAL_POLL_MS);
  }

  private note(table: CacheTopic | typeof EXTERNAL): void {
    this.pending.add(table);
    if (this.timer) return;
    const sinceRelease = Date.now() - this.releasedAt;
    this.timer = setTimeout(() => this.release(), Math.max(this.coalesceMs, BURST_MS - sinceRelease));
  }

  stop(): void {
    this.detach?.();
    this.detach = undefined;
    this.detachOthers?.();
    this.detachOthers = undefined;
    this.unwatch?.();
    this.unwatch = undefined;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  };

  /** A number that changes whenever one of `tables` changed. */
  version(tables: readonly CacheTopic[]): number {
    let sum = this.external;
    for (const [table, v] of this.versions) if (tables.includes(table)) sum += v;
    return sum;
  }

  private release(): void {
    this.timer = undefined;
    this.releasedAt = Date.now();
    for (const table of this.pending) {
      if (table === EXTERNAL) this.external++;
      else this.versions.set(table, (this.versions.get(table) ?? 0) + 1);
    }
    this.pending.clear();
    this.releases++;
    for (const listener of [...this.listeners]) listener();
  }
}

const EXTERNAL = '*external*' as const;
/** Within this of a release, the next one waits out the rest of it: at most one a second while commits keep coming. */
const BURST_MS = 1_000;
const EXTERNAL_POLL_MS = 1_000;
