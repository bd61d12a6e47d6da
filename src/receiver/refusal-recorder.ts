import { LISTENER_ALERT_RULES } from '../alerts/listener-refusing-alert.js';
import { type Cache, type ListenerRefusal, type NewAlert, writeWhenFree } from '../cache/index.js';

/** Refusals written at most this often, in one transaction: a flood of strangers costs one small commit a second. */
const RECORD_EVERY_MS = 1_000;
/** Refusals kept a write at most; past it a flood's rest is only counted in the log (REFUSAL_LINE_EVERY_MS). */
export const REFUSALS_A_WRITE = 100;
/** How long a write of refusals may wait for another process's lock before it is given up (and logged). */
const WRITE_DEADLINE_MS = 30_000;

export interface RefusalRecorderOptions {
  cache: Cache;
  /** The listener's writes, with its short wait for the lock (cache/db/busy-writes.ts). */
  write: <T>(write: () => T) => T;
  log: (line: string) => void;
  /** After a write raised the refusing alert (committed): notify it as a kill is (KillNotifier.notifyRefusing). */
  raised: () => void;
}

/**
 * Keeps the listener's refusals in the cache (never a body), at most one write a second, and raises what the
 * refusing rule says in the same transaction (alerts/listener-refusing-alert.ts). The alert is notified as a kill
 * is, by the kill notifier (`raised`): forwarded, shown, marked notified, and waited for with the kills' time limit.
 */
export class RefusalRecorder {
  private pending: ListenerRefusal[] = [];
  private timer: NodeJS.Timeout | undefined;
  private lastWrite = Number.NEGATIVE_INFINITY;
  private writing: Promise<void> = Promise.resolve();

  constructor(private readonly options: RefusalRecorderOptions) {}

  record(refusal: ListenerRefusal): void {
    if (this.pending.length >= REFUSALS_A_WRITE) return;
    this.pending.push(refusal);
    this.timer ??= setTimeout(() => this.flush(), Math.max(0, this.lastWrite + RECORD_EVERY_MS - Date.now()));
  }

  /** Writes what is pending and waits for the writes (the listener is stopping; the kill notifier closes after). */
  async close(): Promise<void> {
    clearTimeout(this.timer);
    this.flush();
    await this.writing;
  }

  private flush(): void {
    this.timer = undefined;
    if (this.pending.length === 0) return;
    const batch = this.pending;
    this.pending = [];
    this.lastWrite = Date.now();
    const { cache, write, log } = this.options;
    this.writing = this.writing
      .then(() =>
        writeWhenFree(write, () => cache.inbox.refuse(batch, LISTENER_ALERT_RULES), Date.now() + WRITE_DEADLINE_MS),
      )
      .then(
        (alert) => {
          if (alert) this.raise(alert);
        },
        (error: unknown) =>
          log(`could not keep ${batch.length} refusal(s): ${error instanceof Error ? error.message : String(error)}`),
      );
  }

  private raise(alert: NewAlert & { id: number }): void {
    this.options.log(`alert: ${alert.message}`);
    this.options.raised();
  }
}
