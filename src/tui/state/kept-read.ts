import type { Cache, CacheTopic } from '../../cache/index.js';
import type { ChangeHub } from './change-hub.js';
import { type Running, readNow, readSliced, type SlicedRead } from './sliced-read.js';

/**
 * What a kept read is asked for: `key` names what it reads (the cities of the board, a city on Forecasts); `stamp`
 * says how fresh it must be beyond the cache's changes (the minute of the clock), so a new stamp reads again like a
 * change of the tables does; `params` is what the read takes.
 */
export interface KeptAsk<P> {
  key: string;
  stamp: string;
  params: P;
}

interface Entry<T> {
  key: string;
  stamp: string;
  version: number;
  value: T;
}

/**
 * A pane's read of the cache kept while the monitor runs, not only while the pane shows, so the key that shows the
 * pane again draws it from memory in the key's one commit. When the tables it reads change (or its stamp moves), it
 * is read again in the background a slice at a time (sliced-read.ts), the last result shown meanwhile, and its
 * watchers told when the new one is in. Only a key asking for what was never read (another city) reads at once, in
 * its commit. Keeps the results of the `keep` keys used last.
 */
export class KeptRead<P, T> {
  private entries: Entry<T>[] = [];
  private job: (Running & { key: string; stamp: string; version: number }) | undefined;
  private readonly watchers = new Set<() => void>();
  /** Bumped when a background read brings a new result: what useSyncExternalStore compares. */
  private generation = 0;

  constructor(
    private readonly hub: ChangeHub,
    readonly topics: readonly CacheTopic[],
    private readonly read: (cache: Cache, params: P) => SlicedRead<T>,
    private readonly keep = 1,
  ) {}

  /**
   * The result for `ask`: the current one, or the last one read for its key while a newer one is due (`refresh`
   * starts it), or, for a key never read, a read now.
   */
  get(cache: Cache, ask: KeptAsk<P>): T {
    const entry = this.entryOf(ask);
    if (entry) return entry.value;
    const version = this.hub.version(this.topics);
    const value = readNow(this.read(cache, ask.params));
    this.store({ key: ask.key, stamp: ask.stamp, version, value });
    return value;
  }

  /** The result kept for `ask`'s key, however old; undefined when none was read (reads nothing). */
  peek(ask: KeptAsk<P>): T | undefined {
    return this.entryOf(ask)?.value;
  }

  /** Whether the result for `ask` is as of the cache's current content and its stamp. */
  isCurrent(ask: KeptAsk<P>): boolean {
    const entry = this.entryOf(ask);
    return entry !== undefined && entry.stamp === ask.stamp && entry.version === this.hub.version(this.topics);
  }

  /** Reads `ask` again in the background when its result is not current (at most one such read at a time). */
  refresh(cache: Cache, ask: KeptAsk<P>): void {
    if (this.isCurrent(ask)) return;
    const version = this.hub.version(this.topics);
    const job = this.job;
    if (job && job.key === ask.key && job.stamp === ask.stamp && job.version === version) return;
    job?.cancel();
    const running = readSliced(
      this.read(cache, ask.params),
      (value) => {
        this.job = undefined;
        this.store({ key: ask.key, stamp: ask.stamp, version, value });
        this.generation++;
        for (const watcher of [...this.watchers]) watcher();
      },
      () => {
        this.job = undefined;
        // dropped: the pane's next render reads it at once and meets the same failure there, where the failure
        // boundary ends the monitor with one line (a damaged page)
        this.entries = this.entries.filter((e) => e.key !== ask.key);
        this.generation++;
        for (const watcher of [...this.watchers]) watcher();
      },
    );
    this.job = { ...running, key: ask.key, stamp: ask.stamp, version };
  }

  /** Stops a background read (the monitor ends). */
  stop(): void {
    this.job?.cancel();
    this.job = undefined;
  }

  subscribe = (watcher: () => void): (() => void) => {
    this.watchers.add(watcher);
    return () => {
      this.watchers.delete(watcher);
    };
  };

  snapshot = (): number => this.generation;

  private entryOf(ask: KeptAsk<P>): Entry<T> | undefined {
    return this.entries.find((e) => e.key === ask.key);
  }

  private store(entry: Entry<T>): void {
    this.entries = [entry, ...this.entries.filter((e) => e.key !== entry.key)].slice(0, this.keep);
  }
}
