import { duration as lasted } from '../domain/clock-offset.js';
import type { StreamOutcome, SyncError } from './sync-summary.js';

/** While a stream keeps failing, one line saying so at most this often (host ms): an hour. */
export const REMINDER_EVERY_MS = 3_600_000;

/** A stream failing since its first failure of the run. */
interface Failing {
  sinceMs: number;
  passes: number;
  /** The kinds of failure said in this run of failures: each once. */
  said: Set<SyncError['kind']>;
  remindedMs: number;
}

/**
 * The daemon's log of stream faults (DESIGN 3 `sync`): a fault is loud once and a recovery is said. A stream's first
 * failed pass is a line with its error; the passes that fail after it are folded (a service down for a weekend is
 * not thousands of identical lines), except the first failure of another kind (unreachable, refused, invalid,
 * other) in the run, a fault of its own (a stream flapping between two kinds says each once); while it keeps
 * failing, a reminder at most once an hour with the count and the latest error; the pass that answers again says
 * `recovered after N failed passes (3m12s)`, from the first failure to the recovery. Times are the host's
 * (`nowMs`), as the lines' stamps are.
 */
export class FaultLog {
  private readonly failing = new Map<string, Failing>();

  constructor(
    private readonly log: (line: string) => void,
    private readonly reminderEveryMs = REMINDER_EVERY_MS,
  ) {}

  /** One stream pass's outcome, at `nowMs` on the host's clock. */
  outcome({ stream, error }: StreamOutcome, nowMs: number): void {
    const failing = this.failing.get(stream);
    if (!error) {
      if (!failing) return;
      this.failing.delete(stream);
      const passes = failing.passes === 1 ? '1 failed pass' : `${failing.passes} failed passes`;
      this.log(`${stream}: recovered after ${passes} (${lasted(nowMs - failing.sinceMs)})`);
      return;
    }
    if (!failing) {
      this.failing.set(stream, { sinceMs: nowMs, passes: 1, said: new Set([error.kind]), remindedMs: nowMs });
      this.log(`${stream}: ${error.error}`);
      return;
    }
    failing.passes++;
    if (!failing.said.has(error.kind)) {
      failing.said.add(error.kind);
      failing.remindedMs = nowMs;
      this.log(`${stream}: ${error.error}`);
      return;
    }
    if (nowMs - failing.remindedMs < this.reminderEveryMs) return;
    failing.remindedMs = nowMs;
    const since = new Date(failing.sinceMs).toISOString();
    const { passes } = failing;
    this.log(
      `${stream}: still failing, ${passes} failed passes since ${since} (${lasted(nowMs - failing.sinceMs)}): ${error.error}`,
    );
  }
}
