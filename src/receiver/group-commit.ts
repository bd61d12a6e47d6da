import type { Cache } from '../cache/cache.js';
import type { InboxEntry, IntakeOutcome } from '../cache/inbox.js';

interface Waiting {
  entry: InboxEntry;
  resolve: (outcome: IntakeOutcome) => void;
  reject: (error: unknown) => void;
}

/**
 * Commits concurrent deliveries together: one transaction (one fsync under synchronous=FULL) for every entry that
 * arrived while the previous commit ran, instead of one each. Because a better-sqlite3 commit holds the event loop,
 * requests that arrive during it queue up by themselves and the next turn takes them all. Each caller's promise
 * settles after the commit that holds its entry, so a 2xx is never sent for an uncommitted event.
 */
export class GroupCommit {
  private queue: Waiting[] = [];
  private scheduled = false;
  private draining: Promise<void> | undefined;
  private drained: (() => void) | undefined;
  /** Commits made and entries they held, for the benchmark and the status line. */
  readonly stats = { commits: 0, entries: 0, largest: 0 };

  constructor(
    private readonly cache: Cache,
    private readonly onCommitted?: (entries: InboxEntry[], outcomes: IntakeOutcome[]) => void,
  ) {}

  submit(entry: InboxEntry): Promise<IntakeOutcome> {
    return new Promise((resolve, reject) => {
      this.queue.push({ entry, resolve, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  /** Resolves once nothing is queued (shutdown: everything acknowledged or about to be is committed). */
  idle(): Promise<void> {
    if (this.queue.length === 0 && !this.scheduled) return Promise.resolve();
    this.draining ??= new Promise((resolve) => {
      this.drained = resolve;
    });
    return this.draining;
  }

  private flush(): void {
    this.scheduled = false;
    const batch = this.queue;
    this.queue = [];
    if (batch.length > 0) {
      const entries = batch.map((w) => w.entry);
      let outcomes: IntakeOutcome[] | undefined;
      try {
        outcomes = this.cache.intakeWebhooks(entries);
      } catch (error) {
        for (const w of batch) w.reject(error);
      }
      if (outcomes) {
        this.stats.commits++;
        this.stats.entries += batch.length;
        this.stats.largest = Math.max(this.stats.largest, batch.length);
        for (const [i, w] of batch.entries()) w.resolve(outcomes[i] as IntakeOutcome);
        this.onCommitted?.(entries, outcomes);
      }
    }
    if (this.queue.length === 0 && this.drained) {
      this.drained();
      this.drained = undefined;
      this.draining = undefined;
    }
  }
}
