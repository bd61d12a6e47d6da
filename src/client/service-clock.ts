import { AsyncLocalStorage } from 'node:async_hooks';
import { signedDuration } from '../domain/clock-offset.js';

const DAY_MS = 86_400_000;

/** What `answersDuring` learnt of the answers to the requests made inside it. */
export interface PassAnswers {
  /** The service's clock (its `Date`) at the first answer: everything it published before then is in the pass. */
  firstMs: number | null;
}

const passes = new AsyncLocalStorage<PassAnswers>();

/**
 * Runs `work` (a pass of one stream) and says when the service first answered inside it: a pass holds everything
 * the service had published by then (DESIGN 4 "a price against a model of the same instant"). Passes running at the
 * same time each see their own answers.
 */
export async function answersDuring<T>(work: () => Promise<T>): Promise<{ value: T; answers: PassAnswers }> {
  const answers: PassAnswers = { firstMs: null };
  const value = await passes.run(answers, work);
  return { value, answers };
}

export interface ServiceClockOptions {
  /** The offset last known (the cache's), so a new process starts on the service's clock; null: none yet. */
  offsetMs?: number | null;
  /** The host's clock (tests inject theirs). */
  hostNow?: () => number;
  /** Where the clock says what it could not read, once each. */
  log?: (line: string) => void;
  /** Told the offset when it has moved by a second or more since last told (another thread follows it). */
  onOffset?: (offsetMs: number) => void;
}

/** How far the offset moves before `onOffset` hears of it: an HTTP date has whole seconds. */
const TOLD_WITHIN_MS = 1_000;

/**
 * The monitor's one clock (DESIGN 4 "the monitor's clock"): the host's clock plus the offset of the service's `Date`
 * from it at the last good answer. Every market "now" of the monitor reads it; poll intervals and timeouts stay on the
 * host's clock. Without any answer (and no offset kept) it is the host's clock.
 */
export class ServiceClock {
  private offset: number | null;
  private readonly hostNow: () => number;
  private readonly log: (line: string) => void;
  private readonly onOffset?: (offsetMs: number) => void;
  private told: number | null;
  private saidUnreadable = false;
  private markAnswered: () => void = () => {};
  private readonly firstAnswer = new Promise<void>((resolve) => {
    this.markAnswered = resolve;
  });

  constructor(options: ServiceClockOptions = {}) {
    this.offset = options.offsetMs ?? null;
    this.told = this.offset;
    this.hostNow = options.hostNow ?? Date.now;
    this.log = options.log ?? (() => {});
    this.onOffset = options.onOffset;
  }

  /** The service's clock now, as best known. */
  now = (): Date => new Date(this.nowMs());

  nowMs(): number {
    return this.hostNow() + (this.offset ?? 0);
  }

  /**
   * Resolved at this process's first answer with a readable `Date` (observed here or followed from another thread):
   * from then on the clock is measured, not the offset the cache last kept.
   */
  answered(): Promise<void> {
    return this.firstAnswer;
  }

  /** The service's clock less the host's (ms); null while no answer carried a readable `Date`. */
  offsetMs(): number | null {
    return this.offset;
  }

  /** Takes an offset read elsewhere: by the session's thread, whose answers the screen's clock follows. */
  follow(offsetMs: number): void {
    this.offset = offsetMs;
    this.markAnswered();
    if (this.onOffset && (this.told === null || Math.abs(offsetMs - this.told) >= TOLD_WITHIN_MS)) {
      this.told = offsetMs;
      this.onOffset(offsetMs);
    }
  }

  /**
   * A good answer's `Date` header, read when its headers arrived. Unreadable or missing: the offset stays as it was
   * (said once in the log). A jump of over a day is said and taken: a service restarted with `--start`.
   */
  observe(dateHeader: string | string[] | undefined, hostMs = this.hostNow()): void {
    const text = Array.isArray(dateHeader) ? dateHeader[0] : dateHeader;
    const serviceMs = text === undefined ? Number.NaN : Date.parse(text);
    if (!Number.isFinite(serviceMs)) {
      if (!this.saidUnreadable) {
        this.saidUnreadable = true;
        const kept = this.offset === null ? "the machine's clock" : `an offset of ${signedDuration(this.offset)}`;
        this.log(`the service's answers carry no readable Date header; the monitor keeps ${kept}`);
      }
      return;
    }
    const offset = serviceMs - hostMs;
    if (this.offset !== null && Math.abs(offset - this.offset) > DAY_MS)
      this.log(
        `the service's clock moved ${signedDuration(offset - this.offset)} since its last answer ` +
          '(a service restarted with --start?); the monitor follows it',
      );
    this.follow(offset);
    const pass = passes.getStore();
    if (pass && (pass.firstMs === null || serviceMs < pass.firstMs)) pass.firstMs = serviceMs;
  }
}
