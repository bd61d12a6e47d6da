import type { Cache, CacheTopic } from '../../cache/index.js';
import type { ChangeHub } from './change-hub.js';
import { KeysetStrip, type SteppedKeysetSource } from './keyset-strip.js';
import { LIVE, type PaneInputs, type ReadInstant } from './pane-store.js';

/**
 * The store of a pane that shows a keyset list (the Signals feed): the stretch of the list kept in memory around the
 * window shown (keyset-strip.ts), so coming back to the pane, a move or a page reads nothing once it is prefetched.
 * The same two scopes as a PaneStore: live, and the list as it stood at time travel's instant (a new instant is a new
 * list, from its newest; the live one stays for Esc).
 */
export class KeysetStore<Row, Key> {
  private readonly live: KeysetStrip<Row, Key>;
  private replay: { atMs: number; strip: KeysetStrip<Row, Key> } | undefined;

  /** The list's tables' change counter, which a strip watched listens to. */
  private readonly changes = {
    subscribe: (listener: () => void) => this.hub.subscribe(listener),
    version: () => this.hub.version(this.topics),
  };

  constructor(
    private readonly hub: ChangeHub,
    /** The tables the list reads, taken from its cache/ read. */
    readonly topics: readonly CacheTopic[],
    /** The list as it stood at `atMs` (undefined: live). */
    private readonly listAt: (atMs: number | undefined) => SteppedKeysetSource<Row, Key>,
  ) {
    this.live = new KeysetStrip(listAt(undefined), this.changes);
  }

  /** The stretch of `instant`'s list, told the tables' version now (a newer one is read again on `refresh`). */
  scope(instant: ReadInstant): KeysetStrip<Row, Key> {
    const { atMs } = instant;
    let strip = this.live;
    if (atMs !== undefined) {
      if (this.replay?.atMs !== atMs) {
        this.replay?.strip.stop();
        this.replay = { atMs, strip: new KeysetStrip(this.listAt(atMs), this.changes) };
      }
      strip = this.replay.strip;
    }
    strip.observe(this.hub.version(this.topics));
    return strip;
  }

  /** Reads, in the background, the live list's window at the pane's height and the page below it (it prefetches). */
  warm(_cache: Cache, inputs: Pick<PaneInputs, 'height'>): undefined {
    const rows = Math.max(1, inputs.height - 1);
    this.scope(LIVE).warm(2 * rows + 1);
    return undefined;
  }

  stop(): void {
    this.live.stop();
    this.replay?.strip.stop();
  }
}
