import { type InboxEntry, type IntakeOutcome, isBusy, nextBusyPause } from '../cache/index.js';

/**
 * How long after a request began its commit may wait for another process's write lock. The service gives a
 * delivery 8 s (spec 6.2) and counts a timeout as a failure like any other; 7 s leaves one for the fsync and the
 * answer's trip, so a lock that outlasts it gets a clear 503 the service retries, never a hang.
 */
export const COMMIT_DEADLINE_MS = 7_000;

interface Waiting {
  entry: InboxEntry;
  /** Epoch ms after which the entry is refused rather than kept waiting for the lock. */
  deadline: number;
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
 *
 * `commit` waits for another process's write lock only briefly (cache/db/busy-writes.ts); a group that meets it stays queued and
 * is tried again from a timer with backoff, joined by what arrives meanwhile, while the event loop serves other
 * requests. An entry whose deadline would pass before the next try is refused with the busy error.
 */
export class GroupCommit {
  private queue: Waiting[] = [];
  private busy = false;
  /** The pause before the next try while the lock is held; undefined when the last try got it. */
  private pause: number | undefined;
  private idleWaiters: (() => void)[] = [];
  /** Groups committed, entries they held and the largest: for the benchmark and the status line. */
  readonly stats = { commits: 0, entries: 0, largest: 0 };

  constructor(
    private readonly commit: (entries: InboxEntry[]) => IntakeOutcome[],
    private readonly makeDurable: () => Promise<void>,
    private readonly onCommitted?: (entries: InboxEntry[], outcomes: IntakeOutcome[]) => void,
  ) {}

  /** `deadline`: epoch ms by which the entry must be committed or refused (default COMMIT_DEADLINE_MS from now). */
  submit(entry: InboxEntry, deadline = Date.now() + COMMIT_DEADLINE_MS): Promise<IntakeOutcome> {
    return new Promise((resolve, reject) => {
      this.queue.push({ entry, deadline, resolve, reject });
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
        outcomes = this.commit(entries);
        this.pause = undefined;
      } catch (error) {
        if (!isBusy(error)) for (const w of group) w.reject(error ?? new Error('the inbox commit failed'));
        // the group stays queued for a timer's try; the event loop goes back to the other requests meanwhile
        else if (this.waitForLock(group, error)) return;
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
    this.pause = undefined;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const resolve of waiters) resolve();
  }

  /**
   * The group met another process's lock: refuses the entries that cannot wait for the next try, puts the rest back
   * ahead of what arrived meanwhile and schedules that try. False when nothing is left to wait.
   */
  private waitForLock(group: Waiting[], error: unknown): boolean {
    const pause = nextBusyPause(this.pause);
    this.pause = pause;
    const now = Date.now();
    const waiting: Waiting[] = [];
    for (const w of group) {
      if (w.deadline - now <= pause) w.reject(error);
      else waiting.push(w);
    }
    this.queue = [...waiting, ...this.queue];
    if (this.queue.length === 0) return false;
    // not unref'd: held deliveries are work the process must finish before it may end
    setTimeout(() => void this.nextGroup(), pause);
    return true;
  }
}
