import type { Cache, CacheTopic } from '../../cache/index.js';
import type { KeysetSource } from '../hooks/use-keyset-window-state.js';
import type { ChangeHub } from './change-hub.js';
import { KeysetStrip, type SteppedKeysetSource } from './keyset-strip.js';
import { LIVE, type PaneInputs, type ReadInstant } from './pane-store.js';

/** One list a store keeps: which it is (`id`, its `List` as text), its stretch, and what else its rows depend on. */
interface Kept<Row, Key, List> {
  id: string;
  list: List;
  strip: KeysetStrip<Row, Key>;
  /** What a read depends on besides the tables (the Alerts' live conditions' text): a new one reads it again. */
  stamp: string;
}

/**
 * The store of a pane that shows a keyset list (the Signals feed, the Alerts, a History table): the stretch of the
 * list kept in memory around the window shown (keyset-strip.ts), so coming back to the pane, a move or a page reads
 * nothing once it is prefetched. Which list is shown is `List` (History's table and filter; none for the others): a
 * new one is a new stretch, the old one stopped. The same two scopes as a PaneStore: live, and the list as it stood
 * at time travel's instant (a new instant is a new list, from its newest; the live one stays for Esc).
 */
export class KeysetStore<Row, Key, List = undefined> {
  private live: Kept<Row, Key, List> | undefined;
  private replay: (Kept<Row, Key, List> & { atMs: number }) | undefined;

  constructor(
    private readonly hub: ChangeHub,
    /** The tables the list reads, taken from its cache/ read (a table's own, for History's). */
    private readonly topics: readonly CacheTopic[] | ((list: List) => readonly CacheTopic[]),
    /** The list as it stood at `atMs` (undefined: live). */
    private readonly listAt: (atMs: number | undefined, list: List) => SteppedKeysetSource<Row, Key>,
    /** The list the prewarm reads (the one a pane opens on). */
    private readonly first?: List,
  ) {}

  /**
   * The stretch of `instant`'s `list`, told its version now (a newer one is read again on `refresh`); `stamp`: what
   * else its rows depend on, read again when it changes.
   */
  scope(instant: ReadInstant, list?: List, stamp = ''): KeysetStrip<Row, Key> {
    const { atMs } = instant;
    const of = list ?? (this.first as List);
    const id = JSON.stringify(of) ?? '';
    let kept: Kept<Row, Key, List>;
    if (atMs === undefined) {
      if (this.live?.id !== id) {
        this.live?.strip.stop();
        this.live = this.keep(undefined, of, id);
      }
      kept = this.live;
    } else {
      if (this.replay?.atMs !== atMs || this.replay.id !== id) {
        this.replay?.strip.stop();
        this.replay = Object.assign(this.keep(atMs, of, id), { atMs });
      }
      kept = this.replay;
    }
    const restamped = kept.stamp !== stamp;
    kept.stamp = stamp;
    kept.strip.observe(this.version(of, kept));
    // what the rows hold besides the tables is in memory and changed: the frame drawn now shows it
    if (restamped) kept.strip.readAgain();
    return kept.strip;
  }

  /** Reads, in the background, the live list's window at the pane's height and the page below it (it prefetches). */
  warm(_cache: Cache, inputs: Pick<PaneInputs, 'height'>): undefined {
    const rows = Math.max(1, inputs.height - 1);
    this.scope(LIVE, this.live?.list, this.live?.stamp).warm(2 * rows + 1);
    return undefined;
  }

  stop(): void {
    this.live?.strip.stop();
    this.replay?.strip.stop();
  }

  private keep(atMs: number | undefined, list: List, id: string): Kept<Row, Key, List> {
    const kept: Kept<Row, Key, List> = { id, list, stamp: '', strip: undefined as never };
    // the list's change counter, which its strip listens to while watched: its tables' version and its stamp
    kept.strip = new KeysetStrip(this.listAt(atMs, list), {
      subscribe: (listener: () => void) => this.hub.subscribe(listener),
      version: () => this.version(list, kept),
    });
    return kept;
  }

  private version(list: List, kept: Pick<Kept<Row, Key, List>, 'stamp'>): string {
    const topics = typeof this.topics === 'function' ? this.topics(list) : this.topics;
    return `${this.hub.version(topics)}|${kept.stamp}`;
  }
}

/**
 * A list read at once (a cache read quick enough for a key: the Alerts' segments, a History table's page) as a
 * stepped one, so that its store prefetches and refreshes it like the feed: each read is one step that returns at once.
 */
export function readInOneStep<Row, Key>(
  source: KeysetSource<Row, Key>,
  compare?: (a: Key, b: Key) => number,
): SteppedKeysetSource<Row, Key> {
  return {
    // biome-ignore lint/correctness/useYield: one step, returned at once (a read with no step to give way at)
    *olderSteps(after, limit) {
      return source.older(after, limit);
    },
    // biome-ignore lint/correctness/useYield: one step, returned at once
    *newerSteps(before, limit) {
      return source.newer(before, limit);
    },
    keyOf: (row) => source.keyOf(row),
    compare,
  };
}
