import type { Cache } from '../cache/cache.js';
import type { InboxEntry, IntakeOutcome } from '../cache/inbox.js';

interface Waiting {
  entry: InboxEntry;
  resolve: (outcome: IntakeOutcome) => void;
  reject: (error: unknown) => void;
}

/**
 * Commits concurrent deliveries together and answers each only once its commit is on the disk.
 *
 * One group at a time: commit everything that queued up (one transaction), then make it durable with
 * `makeDurable` (an fsync of the WAL on libuv's thread pool, see wal-sync.ts), then answer the group and start the
 * next one with whatever arrived meanwhile. The event loop stays free during the fsync, so requests keep being
 * read, verified and parsed while the disk flushes, and the next group is as large as the load makes it: one
 * fsync for many events instead of one each. A caller's promise settles only after the fsync that covers its
 * commit, so a 2xx is never sent for an event a power cut could lose.
 */
export class GroupCommit {
  private queue: Waiting[] = [];
  private busy = false;
  private idleWaiters: (() => void)[] = [];
  /** Groups committed, entries they held and the largest: for the benchmark and the status line. */
  readonly stats = { commits: 0, entries: 0, largest: 0 };

  constructor(
    private readonly cache: Cache,
    private readonly makeDurable: () => Promise<void>,
    private readonly onCommitted?: (entries: InboxEntry[], outcomes: IntakeOutcome[]) => void,
  ) {}

  submit(entry: InboxEntry): Promise<IntakeOutcome> {
    return new Promise((resolve, reject) => {
      this.queue.push({ entry, resolve, reject });
      if (!this.busy) {
        this.busy = true;
        // let the requests already read in this turn of the event loop join the group
        setImmediate(() => void this.nextGroup());
      }
    });
  }

  /** Resolves once nothing is queued, being committed or being synced (shutdown). */
  idle(): Promise<void> {
    if (!this.busy && this.queue.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private async nextGroup(): Promise<void> {
    while (this.queue.length > 0) {
      const group = this.queue;
      this.queue = [];
      const entries = group.map((w) => w.entry);
      let outcomes: IntakeOutcome[];
      try {
        outcomes = this.cache.intakeWebhooks(entries);
      } catch (error) {
        for (const w of group) w.reject(error ?? new Error('the inbox commit failed'));
        continue;
      }
      this.stats.commits++;
      this.stats.entries += group.length;
      this.stats.largest = Math.max(this.stats.largest, group.length);
      let unsynced: unknown;
      try {
        await this.makeDurable();
      } catch (error) {
        unsynced = error ?? new Error('the inbox fsync failed');
      }
      if (unsynced === undefined) for (const [i, w] of group.entries()) w.resolve(outcomes[i] as IntakeOutcome);
      else for (const w of group) w.reject(unsynced);
      // committed either way: what happens next (a kill's notification) happens once, even though an unsynced
      // group is refused and its retries will be duplicates; and its failure must not stall the next group
      try {
        this.onCommitted?.(entries, outcomes);
      } catch (error) {
        process.emitWarning(`after an inbox commit: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    this.busy = false;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const resolve of waiters) resolve();
  }
}
