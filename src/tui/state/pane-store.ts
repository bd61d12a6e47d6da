import type { Cache, CacheTopic } from '../../cache/index.js';
import type { City } from '../../contract/cities.js';
import type { SettlementConfig } from '../../contract/config.js';
import type { ChangeHub } from './change-hub.js';
import { type Running, readNow, readSliced, type SlicedRead } from './sliced-read.js';
import { Watchers } from './watchers.js';

/**
 * A store as React reads it (`useSyncExternalStore`): `subscribe` is told when what it holds changed, `getSnapshot`
 * is any value that moves when it did. Every store of a pane is one (a pane's scope, a keyset list's stretch, the
 * cache's change counter for some tables: ChangeHub.changes).
 */
export interface ReadStore {
  subscribe(listener: () => void): () => void;
  getSnapshot(): unknown;
}

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

/** Time travel's instant as a pane's reads take it (replay-context.ts, useReplayInstant): both undefined when live. */
export interface ReadInstant {
  atMs: number | undefined;
  date: string | undefined;
}

/** Live: no instant. */
export const LIVE: ReadInstant = { atMs: undefined, date: undefined };

/** What a pane's store is asked for at a render (use-pane-inputs.ts) or by the prewarm: the same for every pane. */
export interface PaneInputs {
  cities: readonly City[];
  /** The city chosen (`c`, Enter on the board); null: none cached yet. */
  city: City | null;
  settlement: SettlementConfig;
  /** The clock's minute (ms / 60,000), and the clock's now. */
  minute: number;
  nowMs: number;
  instant: ReadInstant;
  /** The pane's size: its page or window is laid out for it. */
  width: number;
  height: number;
}

/**
 * What a store's ask takes from time travel. `key`: the instant and its pinned day, so a step of time travel is a read
 * never made (read in the step's commit). `stamp`: live, the minute (the clocks and what is still live move with it);
 * an instant's read does not move with the clock.
 */
export function instantAsk(
  instant: ReadInstant,
  minute: number,
): { key: [number | null, string | null]; stamp: string } {
  return {
    key: [instant.atMs ?? null, instant.date ?? null],
    stamp: instant.atMs === undefined ? String(minute) : 'instant',
  };
}

/** How a pane's store reads: each pane's module declares one (board-read.ts, forecast-read.ts, positions-model.ts). */
/** `I`: what the pane asks with, the inputs every pane has and any of its own (History's filter). */
export interface PaneStoreSpec<P, T, I extends PaneInputs = PaneInputs> {
  /** The tables the read touches, taken from the board/ or cache/ read it calls: a change to one reads it again. */
  topics: readonly CacheTopic[];
  /**
   * What the pane asks for: its key (what it reads), its stamp (how fresh beyond the tables), the read's params (which
   * may carry a table's version from `hub`, for what the read keeps between reads).
   */
  ask(inputs: I, hub: ChangeHub): KeptAsk<P>;
  /** A read in steps (sliced-read.ts), made once a scope: what it keeps for the next read (a memo) goes with it. */
  newRead(): (cache: Cache, params: P) => SlicedRead<T>;
  /** Results kept a scope: the keys asked for last (the last few cities of Forecasts). */
  keep?: number;
  /** What the pane's first frame lays out of a result, laid out when warm's read is in (a page, not drawn). */
  layOutAhead?(store: PaneStore<P, T, I>, value: T, inputs: I): void;
}

/** Layouts kept a result: both units at the size shown, and the one before a resize. */
const LAYOUTS_KEPT = 4;

/**
 * One pane's store: its read of the cache kept while the monitor runs, not only while the pane shows, so the key that
 * shows the pane draws it from memory. Two scopes kept apart, live and time travel's (a read of now is never shown
 * while replaying nor one of an instant after Esc, and Esc finds the live one in memory); each reads again in the
 * background when its tables change or its stamp moves (PaneScope, below). `warm` reads the live scope before the pane is
 * first shown; `layout` keeps the lines laid out of a result with the result.
 */
export class PaneStore<P, T, I extends PaneInputs = PaneInputs> {
  readonly topics: readonly CacheTopic[];
  private live: PaneScope<P, T>;
  private replay: PaneScope<P, T>;
  private readonly layouts = new WeakMap<object, Map<string, unknown>>();

  constructor(
    private readonly hub: ChangeHub,
    private readonly spec: PaneStoreSpec<P, T, I>,
  ) {
    this.topics = spec.topics;
    this.live = this.newScope();
    this.replay = this.newScope();
  }

  ask(inputs: I): KeptAsk<P> {
    return this.spec.ask(inputs, this.hub);
  }

  /** The scope of `instant`: live, or time travel's (every instant in one, the instant in its key). */
  scope(instant: ReadInstant): PaneScope<P, T> {
    return instant.atMs === undefined ? this.live : this.replay;
  }

  /**
   * Reads what the pane would ask for live, in the background, and lays out its first frame when it is in. Returns
   * what stops waiting for it (the monitor ends first).
   */
  warm(cache: Cache, inputs: I): () => void {
    const ask = this.spec.ask({ ...inputs, instant: LIVE }, this.hub);
    this.live.want(cache, ask);
    const layOut = this.spec.layOutAhead;
    if (!layOut) return () => {};
    const done = () => {
      const value = this.live.peek(ask);
      if (value === undefined) return;
      stop();
      // the inputs as they are when the read is in (the terminal may have been resized meanwhile)
      layOut(this, value, inputs);
    };
    const stop = this.live.subscribe(done);
    done();
    return stop;
  }

  /**
   * The lines `make` lays out of `result` for `key` (a unit, a size), kept with the result, not the pane: showing the
   * pane again, or going back to a unit shown before, lays out nothing. The oldest of a result's layouts goes first.
   */
  layout<L>(result: object, key: string, make: () => L): L {
    let kept = this.layouts.get(result);
    if (!kept) {
      kept = new Map();
      this.layouts.set(result, kept);
    }
    if (kept.has(key)) return kept.get(key) as L;
    const lines = make();
    kept.set(key, lines);
    for (const old of kept.keys()) if (kept.size > LAYOUTS_KEPT) kept.delete(old);
    return lines;
  }

  /**
   * Forgets every result and what its reads kept between them: a pane whose state goes with it (History's summaries
   * close when it is left) lets its store's memory go too.
   */
  reset(): void {
    this.stop();
    this.live = this.newScope();
    this.replay = this.newScope();
  }

  stop(): void {
    this.live.stop();
    this.replay.stop();
  }

  /** A scope's kept read, with a read (and its memo) of its own. */
  private newScope(): PaneScope<P, T> {
    return new PaneScope(this.hub, this.spec.topics, this.spec.newRead(), this.spec.keep);
  }
}

interface Entry<T> {
  key: string;
  stamp: string;
  version: number;
  value: T;
}

/**
 * One scope of a pane's store (live, or time travel's): its read of the cache kept while the monitor runs, not only
 * while the pane shows, so the key that shows the pane again draws it from memory in the key's one commit. While it
 * is watched (its pane mounted) it listens to the change hub: when its tables change it tells its watchers, so the
 * pane renders and asks again (`want`) with params of that render (the clock's now, the tables' versions a read keeps
 * its memo by: an ask saved from an earlier render would read with stale ones and be taken as current), and the read
 * runs in the background a slice at a time, the last result shown meanwhile. Only a key asking
 * for what was never read (another city) reads at once, in its commit. Keeps the results of the `keep` keys used
 * last.
 */
export class PaneScope<P, T> implements ReadStore {
  private entries: Entry<T>[] = [];
  private job: (Running & { key: string; stamp: string; version: number }) | undefined;
  /** Bumped when a background read brings a new result: what useSyncExternalStore compares. */
  private generation = 0;
  /** The version of its tables the scope last told its watchers of. */
  private heard = Number.NaN;
  /**
   * A mounted pane, a warm waiting for its read; while there is one, the scope listens to the change hub, and a change
   * of its tables is news to them (its result is no longer current: the pane asks again).
   */
  private readonly watchers = new Watchers(() =>
    this.hub.subscribe(() => {
      const version = this.hub.version(this.topics);
      if (version === this.heard) return;
      this.heard = version;
      this.changed();
    }),
  );

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

  /**
   * What the pane shown asks for now, after each of its commits (a read that is due runs between keys, never in one):
   * read again in the background if not current.
   */
  want(cache: Cache, ask: KeptAsk<P>): void {
    this.refresh(cache, ask);
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
        this.changed();
      },
      () => {
        this.job = undefined;
        // dropped: the pane's next render reads it at once and meets the same failure there, where the failure
        // boundary ends the monitor with one line (a damaged page)
        this.entries = this.entries.filter((e) => e.key !== ask.key);
        this.changed();
      },
    );
    this.job = { ...running, key: ask.key, stamp: ask.stamp, version };
  }

  /** Stops a background read (the monitor ends). */
  stop(): void {
    this.job?.cancel();
    this.job = undefined;
    this.watchers.stop();
  }

  subscribe = (watcher: () => void): (() => void) => this.watchers.subscribe(watcher);

  getSnapshot = (): number => this.generation;

  private changed(): void {
    this.generation++;
    this.watchers.notify();
  }

  private entryOf(ask: KeptAsk<P>): Entry<T> | undefined {
    return this.entries.find((e) => e.key === ask.key);
  }

  private store(entry: Entry<T>): void {
    this.entries = [entry, ...this.entries.filter((e) => e.key !== entry.key)].slice(0, this.keep);
  }
}
