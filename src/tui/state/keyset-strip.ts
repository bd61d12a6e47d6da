import type { KeysetSource } from '../hooks/use-keyset-window-state.js';
import type { ReadStore } from './pane-store.js';
import { type Running, readNow, readSliced, type SlicedRead } from './sliced-read.js';
import { Watchers } from './watchers.js';

/** A list read by keyset a step at a time (the Signals feed, a source at a time: cache/feed/feed.ts). */
export interface SteppedKeysetSource<Row, Key> {
  olderSteps(after: Key | null, limit: number): SlicedRead<Row[]>;
  newerSteps(before: Key, limit: number): SlicedRead<Row[]>;
  keyOf(row: Row): Key;
  /**
   * Negative when `a` comes first in the list. None where the key is not the list's order (the Alerts: by time within
   * a segment, keyed by id): a key is then found by its row's place in the stretch.
   */
  compare?(a: Key, b: Key): number;
}

// Over 300 lines, kept whole: every method keeps one invariant over `from`, `rows` and `end` (the stretch), and a
// split would spread it over files. Folding it into keyset-store/ as the store's private part is issue 45's next step.

/** Rows the strip keeps at most: its far side goes when it grows past this. */
const MAX_ROWS = 400;

type Side = 'above' | 'below';

/**
 * A stretch of a keyset list kept in memory around the window a pane shows, so that a move or a page within it
 * reads nothing: `older` and `newer` answer from it as the list itself would. The stretch is every row after `from`
 * (exclusive; null: from the list's first row) down to its last row, or to the list's end when `end`. A read past
 * it extends it (a read now: the key waits for it), a read elsewhere replaces it; `prefetch` extends it in the
 * background, a step at a time, so that the next pages are in memory before their key comes. `refresh` reads it
 * again in the background after the list changed: keys are answered from the stretch as it was until then.
 */
export class KeysetStrip<Row, Key> implements KeysetSource<Row, Key>, ReadStore {
  private from: Key | null = null;
  private rows: Row[] = [];
  private end = false;
  private read = false;
  /** Changes whenever rows already answered may have changed (a replacement, a refresh): windows read again. */
  private generation = 0;
  /** The list's version as last observed, and the version its rows were read at. */
  private current: unknown;
  private readAt: unknown;
  private readonly jobs = new Map<Side | 'refresh', Running>();
  /** A mounted pane; while there is one, the strip listens to its list's changes and reads its rows again. */
  private readonly watchers = new Watchers(
    () =>
      this.list?.subscribe(() => {
        this.observe(this.list?.version());
        this.refresh();
      }) ?? (() => {}),
  );

  /**
   * `list`: the list's change counter (its tables' version in the change hub). While the strip is watched (its pane
   * mounted) it listens to it, and reads its rows again in the background after each change (`refresh`).
   */
  constructor(
    private readonly source: SteppedKeysetSource<Row, Key>,
    private readonly list?: { subscribe(listener: () => void): () => void; version(): unknown },
  ) {}

  keyOf = (row: Row): Key => this.source.keyOf(row);

  older(after: Key | null, limit: number): Row[] {
    if (limit <= 0) return [];
    if (!this.startsAt(after)) this.replaceBelow(after, limit);
    const i = after === null ? 0 : this.firstAfter(after);
    if (i + limit > this.rows.length && !this.end) this.extend('below', i + limit - this.rows.length);
    return this.rows.slice(i, i + limit);
  }

  newer(before: Key, limit: number): Row[] {
    if (limit <= 0) return [];
    if (!this.reachesTo(before)) this.replaceAbove(before, limit);
    let c = this.firstAfter(before, true);
    if (c < limit && this.from !== null) {
      const had = this.rows.length;
      this.extend('above', limit - c);
      c += this.rows.length - had;
    }
    return this.rows.slice(Math.max(0, c - limit), c).reverse();
  }

  /**
   * Makes sure, in the background, that `margin` rows above and below the window (the `height` rows after `above`)
   * are in memory, unless the list ends there; the pane calls it after each window it draws.
   */
  prefetch(above: Key | null, height: number, margin: number): void {
    if (!this.read || !this.startsAt(above)) return;
    const start = above === null ? 0 : this.firstAfter(above);
    if (!this.end && this.rows.length - (start + height) < margin) this.background('below', margin * 2);
    if (this.from !== null && start < margin && this.rows.length > 0) this.background('above', margin * 2);
  }

  /** Reads the list's first `limit` rows in the background when nothing was read yet: a pane not shown yet. */
  warm(limit: number): void {
    if (this.read || this.jobs.has('below')) return;
    const version = this.current;
    this.jobs.set(
      'below',
      readSliced(
        this.source.olderSteps(null, limit),
        (rows) => {
          this.jobs.delete('below');
          // a key read it meanwhile: that read stands
          if (this.read) return;
          this.rows = rows;
          this.from = null;
          this.end = rows.length < limit;
          this.read = true;
          this.readAt = version;
          this.changed();
        },
        () => this.jobs.delete('below'),
      ),
    );
  }

  /** The list's version now (its change counter): rows read from here on are as of it. */
  observe(version: unknown): void {
    this.current = version;
  }

  /**
   * When the list changed since its rows were read (`observe`), the rows kept are read again in the background, then
   * the windows again; meanwhile keys are answered from the rows as they were.
   */
  refresh(): void {
    if (!this.read || this.readAt === this.current) return;
    const version = this.current;
    const running = this.jobs.get('refresh') as (Running & { version?: unknown }) | undefined;
    if (running?.version === version) return;
    for (const side of ['above', 'below'] as const) this.stopJob(side);
    this.stopJob('refresh');
    const from = this.from;
    const limit = Math.max(1, Math.min(this.rows.length, MAX_ROWS));
    const generation = this.generation;
    const job = readSliced(
      this.source.olderSteps(from, limit),
      (rows) => {
        this.jobs.delete('refresh');
        // a read of the key's own since then replaced the stretch: it is newer than this one
        if (this.generation !== generation) return;
        this.from = from;
        this.rows = rows;
        this.end = rows.length < limit;
        this.readAt = version;
        this.changed();
      },
      () => this.jobs.delete('refresh'),
    );
    this.jobs.set('refresh', Object.assign(job, { version }));
  }

  /**
   * Reads the rows kept again now: what they hold besides the tables changed (the Alerts' live conditions, in memory),
   * and the frame being drawn must show it.
   */
  readAgain(): void {
    if (this.read) this.replaceBelow(this.from, Math.max(1, Math.min(this.rows.length, MAX_ROWS)));
  }

  stop(): void {
    this.stopJobs();
    this.watchers.stop();
  }

  subscribe = (watcher: () => void): (() => void) => this.watchers.subscribe(watcher);

  getSnapshot = (): number => this.generation;

  /** Whether the rows after `after` start inside the stretch (or at its end). */
  private startsAt(after: Key | null): boolean {
    if (!this.read) return false;
    if (after === null) return this.from === null;
    const { compare } = this.source;
    if (compare === undefined) return this.sameKey(after, this.from) || this.placeOf(after) >= 0;
    if (this.from !== null && compare(after, this.from) < 0) return false;
    if (this.end) return true;
    const last = this.rows[this.rows.length - 1];
    if (last === undefined) return this.from !== null && compare(after, this.from) === 0;
    return compare(after, this.keyOf(last)) <= 0;
  }

  /** Whether the rows before `before` end inside the stretch. */
  private reachesTo(before: Key): boolean {
    if (!this.read || this.rows.length === 0) return false;
    const { compare } = this.source;
    if (compare === undefined) return this.placeOf(before) >= 0;
    if (this.from !== null && compare(before, this.from) <= 0) return false;
    return this.end || compare(before, this.keyOf(this.rows[this.rows.length - 1] as Row)) <= 0;
  }

  /** The index of the first row after `key` (`orAt`: at or after it), by binary search, or by its place. */
  private firstAfter(key: Key, orAt = false): number {
    const { compare } = this.source;
    if (compare === undefined) {
      const at = this.placeOf(key);
      // not a row of the stretch: `from` (the stretch starts after it), else a key past its end (a read above it)
      if (at < 0) return this.sameKey(key, this.from) ? 0 : this.rows.length;
      return orAt ? at : at + 1;
    }
    let lo = 0;
    let hi = this.rows.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      const c = compare(this.keyOf(this.rows[mid] as Row), key);
      if (c < 0 || (c === 0 && !orAt)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** The place of `key`'s row in the stretch (-1: none), for a list without `compare`. */
  private placeOf(key: Key): number {
    const text = JSON.stringify(key);
    return this.rows.findIndex((row) => JSON.stringify(this.keyOf(row)) === text);
  }

  private replaceBelow(after: Key | null, limit: number): void {
    // its reads under way are of the stretch replaced; its watchers stay (the pane still shows it)
    this.stopJobs();
    this.readAt = this.current;
    this.rows = readNow(this.source.olderSteps(after, limit));
    this.from = after;
    this.end = this.rows.length < limit;
    this.read = true;
    this.generation++;
  }

  private replaceAbove(before: Key, limit: number): void {
    this.stopJobs();
    this.readAt = this.current;
    const got = readNow(this.source.newerSteps(before, limit + 1));
    // one row more than asked says where the stretch starts: after it
    this.from = got.length > limit ? this.keyOf(got[limit] as Row) : null;
    this.rows = got.slice(0, limit).reverse();
    this.end = false;
    this.read = true;
    this.generation++;
  }

  /** `n` more rows on one side, read now (nothing goes from the other side: the caller holds indexes into it). */
  private extend(side: Side, n: number): void {
    this.stopJob(side);
    this.apply(side, readNow(this.steps(side, n)), n, this.edgeKey(side), false);
  }

  private background(side: Side, n: number): void {
    if (this.jobs.has(side) || this.jobs.has('refresh')) return;
    const edge = this.edgeKey(side);
    const job = readSliced(
      this.steps(side, n),
      (rows) => {
        this.jobs.delete(side);
        // the stretch moved since the read began (a key's read, a trim): the rows no longer join it
        if (this.sameKey(this.edgeKey(side), edge)) this.apply(side, rows, n, edge, true);
      },
      () => this.jobs.delete(side),
    );
    this.jobs.set(side, job);
  }

  private sameKey(a: Key | null, b: Key | null): boolean {
    if (a === null || b === null) return a === b;
    const { compare } = this.source;
    return compare === undefined ? JSON.stringify(a) === JSON.stringify(b) : compare(a, b) === 0;
  }

  /** The key the stretch's edge is read from: its last row (or `from`), or its first row. */
  private edgeKey(side: Side): Key | null {
    if (side === 'above') return this.rows[0] === undefined ? this.from : this.keyOf(this.rows[0]);
    const last = this.rows[this.rows.length - 1];
    return last === undefined ? this.from : this.keyOf(last);
  }

  private steps(side: Side, n: number): SlicedRead<Row[]> {
    if (side === 'below') return this.source.olderSteps(this.edgeKey('below'), n);
    // one row more than asked says where the stretch starts
    return this.source.newerSteps(this.edgeKey('above') as Key, n + 1);
  }

  /** Joins rows read from the edge `edge` on one side; `trim`: the far side goes past MAX_ROWS. */
  private apply(side: Side, got: Row[], n: number, edge: Key | null, trim: boolean): void {
    if (side === 'below') {
      this.rows = [...this.rows, ...got];
      this.end = got.length < n;
      if (trim && this.rows.length > MAX_ROWS) {
        const cut = this.rows.length - MAX_ROWS;
        this.from = this.keyOf(this.rows[cut - 1] as Row);
        this.rows = this.rows.slice(cut);
      }
    } else {
      if (edge === null) return;
      this.from = got.length > n ? this.keyOf(got[n] as Row) : null;
      this.rows = [...got.slice(0, n).reverse(), ...this.rows];
      if (trim && this.rows.length > MAX_ROWS) {
        this.rows = this.rows.slice(0, MAX_ROWS);
        this.end = false;
      }
    }
  }

  private stopJobs(): void {
    for (const side of ['above', 'below', 'refresh'] as const) this.stopJob(side);
  }

  private stopJob(side: Side | 'refresh'): void {
    this.jobs.get(side)?.cancel();
    this.jobs.delete(side);
  }

  private changed(): void {
    this.generation++;
    this.watchers.notify();
  }
}
