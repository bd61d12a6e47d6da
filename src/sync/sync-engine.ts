import type { Cache } from '../cache/index.js';
import type { ApiClient } from '../client/api-client.js';
import { ApiError, AuthRejected, ServiceUnreachable } from '../client/errors.js';
import { answersDuring } from '../client/service-clock.js';
import type { StreamName } from '../contract/config.js';
import { isoUtc } from '../domain/city-time.js';
import { DEFAULT_HISTORY_HOURS } from '../domain/streams.js';
import type { StreamCounts } from './counts.js';
import { PartialFailure, STREAMS } from './streams.js';
import { addOutcome, kindOf, type StreamOutcome, type SyncError, type SyncSummary } from './sync-summary.js';

export type { StreamOutcome, SyncError, SyncSummary };
export { addOutcome };

export interface SyncOptions {
  client: ApiClient;
  cache: Cache;
  /** Interval overrides by stream name (ms). */
  intervals?: Record<string, number>;
  /** The live history streams' first window (config `history_hours`, default 48). */
  historyHours?: number;
  /**
   * After a stream's pass stored new or changed rows (also a pass that failed part way): where fresh market data
   * lands, the trader alert rules are asked to run (alerts/trader-alerts.ts). Must return at once.
   */
  onStored?: (stream: string) => void;
}

type Stream = (typeof STREAMS)[number];

/**
 * The board's streams (DESIGN 4 "a price against a model of the same instant"): a venue's snapshot is compared with
 * the model only once the METAR reports and the desk's forecast are held up to its instant, and a price older than
 * what the desk has learnt offers nothing. So fresh rows of one ask for a pass of the others at once, rather than on
 * their next turn (the forecasts' is five minutes away): the screen shows prices and the model of the same instant
 * within seconds of the service publishing them. It ends when a pass brings nothing new, or CATCH_UP_DEPTH asks deep
 * (a service whose world runs hours a second always has something new).
 */
const CATCH_UP: Partial<Record<StreamName, readonly StreamName[]>> = {
  'mkta-buckets': ['metar', 'forecasts'],
  'mktb-buckets': ['metar', 'forecasts'],
  metar: ['mkta-buckets', 'mktb-buckets'],
  forecasts: ['mkta-buckets', 'mktb-buckets'],
};

/** How many catch-up passes may follow one another from a timed or asked pass: prices, the model, the prices. */
const CATCH_UP_DEPTH = 2;

/** The offset of the service's clock is kept in the cache when it moved by at least this much (ms). */
const OFFSET_KEPT_WITHIN_MS = 1_000;

/** One stream's turn-taking: its pass in flight, the one pass asked for after it, its next timed turn. */
interface Slot {
  stream: Stream;
  everyMs: number;
  running?: Promise<StreamOutcome | undefined>;
  queued?: Promise<StreamOutcome | undefined>;
  /** How deep in a catch-up the queued pass was asked (0: a turn, a refresh, a pass of `runOnce`). */
  queuedDepth?: number;
  timer?: NodeJS.Timeout;
}

/**
 * Runs the polled streams: `runOnce` is one full pass (`sync --once`, `r` in the TUI); `start` runs a pass at once
 * and then each stream on its own interval until `stop`. A stream never runs twice at once: a pass asked for while
 * it runs waits for it and runs it once more (data at least as fresh as the asking), and every other ask in that
 * wait joins that one. A failing stream is recorded (last error, in the cache, for the status bar) and retried on
 * its next turn; a rejected key stops everything, because no later turn can succeed.
 */
export class SyncEngine {
  private readonly slots: Slot[];
  private keptOffset: number | null;
  private timed = false;
  private stopped = false;
  private onOutcome?: (outcome: StreamOutcome) => void;
  private onIdle?: () => void;
  /** What each `runOnce` under way gathers: every stream pass that ends while it runs, catch-ups included. */
  private readonly gathering = new Set<(outcome: StreamOutcome) => void>();
  /** `runOnce` calls under way: the engine is not idle between two of its streams. */
  private rounds = 0;
  private settle?: { resolve: () => void; reject: (error: unknown) => void };

  constructor(private readonly opts: SyncOptions) {
    this.slots = STREAMS.map((stream) => ({ stream, everyMs: opts.intervals?.[stream.name] ?? stream.everyMs }));
    this.keptOffset = opts.cache.streams.clockOffset();
  }

  /**
   * Every stream once, in catalogue order; resolves when each has run (or joined a run) after this call, and the
   * board's streams have caught up with each other (CATCH_UP).
   */
  async runOnce(): Promise<SyncSummary> {
    // every pass that ends from here on counts, the catch-ups' too: a second `sync --once` said `mkta-buckets:
    // inserted 0` while its catch-up had stored 429 snapshots
    const summary: SyncSummary = { streams: {}, errors: [] };
    const gather = (outcome: StreamOutcome) => void addOutcome(summary, outcome);
    this.gathering.add(gather);
    this.rounds++;
    try {
      for (const [index, slot] of this.slots.entries()) {
        if (this.stopped) break;
        const outcome = await this.ask(slot);
        // nothing listens at the base URL: the other streams would each wait out the same retries (24 s in all
        // before `sync --once` could say so); they fail with it and take their next turn as usual
        if (outcome?.error?.noConnection) {
          for (const rest of this.slots.slice(index + 1)) await this.notTried(rest, outcome.error);
          break;
        }
      }
      await this.caughtUp();
    } finally {
      this.gathering.delete(gather);
      this.rounds--;
      this.idleNow();
    }
    return summary;
  }

  /** A stream pass's outcome to the daemon and to each `runOnce` under way. */
  private emit(outcome: StreamOutcome): void {
    for (const gather of this.gathering) gather(outcome);
    this.onOutcome?.(outcome);
  }

  /** Tells the daemon when no stream runs or waits for its turn to run: a pass of the engine has ended. */
  private idleNow(): void {
    if (this.stopped || this.rounds > 0) return;
    if (this.slots.some((slot) => slot.running || slot.queued)) return;
    this.onIdle?.();
  }

  /** A stream not asked this pass because `cause` could not connect: its failure recorded, its next turn timed. */
  private async notTried(slot: Slot, cause: SyncError): Promise<StreamOutcome | undefined> {
    // one already running or asked for (a catch-up) goes on and says for itself how it ended
    if (slot.running || slot.queued) return this.ask(slot);
    const { name } = slot.stream;
    const error = `not tried: ${cause.stream} could not connect to the service`;
    this.opts.cache.streams.recordError(name, this.opts.client.clock.now().toISOString(), error);
    this.schedule(slot);
    const outcome: StreamOutcome = { stream: name, error: { stream: name, error, kind: 'unreachable' } };
    this.emit(outcome);
    return outcome;
  }

  /**
   * Until no pass of the board's streams runs or waits (a catch-up asks the next before it ends). A timed engine does
   * not wait: its turns go on, and a refresh's pass needs no end.
   */
  private async caughtUp(): Promise<void> {
    if (this.timed) return;
    const board = this.slots.filter((slot) => CATCH_UP[slot.stream.name] !== undefined);
    for (;;) {
      const busy = board.flatMap((slot) => (slot.queued ? [slot.queued] : slot.running ? [slot.running] : []));
      if (busy.length === 0 || this.stopped) return;
      await Promise.allSettled(busy);
    }
  }

  /**
   * Runs until `stop`: a pass now, then each stream on its interval (timers that keep the process alive: a daemon
   * has nothing else to do). Each stream's outcome goes to `onOutcome`, from timed turns and `runOnce` alike;
   * `onIdle` is called each time no stream runs or waits to run any more (the end of a pass of the engine: a burst
   * of turns, with the catch-ups they asked for). Resolves once stopped and every pass in flight settled; rejects on
   * a rejected key.
   */
  start(onOutcome?: (outcome: StreamOutcome) => void, onIdle?: () => void): Promise<void> {
    this.timed = true;
    this.onOutcome = onOutcome;
    this.onIdle = onIdle;
    const done = new Promise<void>((resolve, reject) => {
      this.settle = { resolve, reject };
    });
    this.runOnce().catch((error: unknown) => this.fail(error));
    return done;
  }

  /**
   * No new pass, no timer; the client's requests in flight are cancelled (what they would have brought comes next
   * time; every page already fetched is committed, a page's write being one synchronous transaction). Resolves once
   * every pass in flight settled, so the cache can be closed.
   */
  async stop(): Promise<void> {
    this.halt();
    await this.idle();
    this.settle?.resolve();
  }

  private halt(): void {
    if (this.stopped) return;
    this.stopped = true;
    for (const slot of this.slots) clearTimeout(slot.timer);
    this.opts.client.cancel();
  }

  private async idle(): Promise<void> {
    await Promise.allSettled(this.slots.flatMap((slot) => [slot.running, slot.queued]));
  }

  /** A rejected key (or a bug): everything stops, and `start` rejects once the passes in flight settled. */
  private fail(error: unknown): void {
    this.halt();
    void this.idle().then(() => this.settle?.reject(error));
  }

  /**
   * This stream's pass now, or once more after the one running; an ask while that one waits joins it (at the
   * shallower of the two catch-up depths).
   */
  private ask(slot: Slot, depth = 0): Promise<StreamOutcome | undefined> {
    if (slot.queued) {
      slot.queuedDepth = Math.min(slot.queuedDepth ?? depth, depth);
      return slot.queued;
    }
    if (!slot.running) return this.begin(slot, depth);
    slot.queuedDepth = depth;
    const next = () => this.begin(slot, slot.queuedDepth ?? 0);
    const queued = slot.running.then(next, next);
    slot.queued = queued;
    return queued;
  }

  private begin(slot: Slot, depth: number): Promise<StreamOutcome | undefined> {
    slot.queued = undefined;
    slot.queuedDepth = undefined;
    clearTimeout(slot.timer);
    slot.timer = undefined;
    if (this.stopped) return Promise.resolve(undefined);
    const running = this.runStream(slot.stream, depth).then((outcome) => {
      if (outcome) this.emit(outcome);
      return outcome;
    });
    slot.running = running;
    const finished = () => {
      if (slot.running === running) slot.running = undefined;
      this.schedule(slot);
      this.idleNow();
    };
    running.then(finished, finished);
    return running;
  }

  /** The stream's next timed turn, counted from the end of its last pass (a refresh postpones it). */
  private schedule(slot: Slot): void {
    if (!this.timed || this.stopped || slot.running || slot.queued) return;
    slot.timer = setTimeout(() => {
      slot.timer = undefined;
      this.ask(slot).catch((error: unknown) => this.fail(error));
    }, slot.everyMs);
  }

  private stored(stream: StreamName, counts: StreamCounts, depth: number): void {
    if (counts.inserted + counts.updated === 0) return;
    this.opts.onStored?.(stream);
    if (depth >= CATCH_UP_DEPTH) return;
    for (const name of CATCH_UP[stream] ?? []) {
      const slot = this.slots.find((s) => s.stream.name === name);
      if (slot) this.ask(slot, depth + 1).catch((error: unknown) => this.fail(error));
    }
  }

  /** The service's clock offset, kept in the cache for `--offline`, `export` and the next start once it moved. */
  private keepOffset(): void {
    const offset = this.opts.client.clock.offsetMs();
    if (offset === null || (this.keptOffset !== null && Math.abs(offset - this.keptOffset) < OFFSET_KEPT_WITHIN_MS))
      return;
    this.opts.cache.streams.recordClockOffset(offset);
    this.keptOffset = offset;
  }

  /**
   * One pass of one stream, recorded in the cache on the service's clock, with the service's clock at its first
   * answer (what it holds is complete up to then); undefined when it was cut short by `stop`.
   */
  private async runStream(stream: Stream, depth: number): Promise<StreamOutcome | undefined> {
    const { cache, client } = this.opts;
    const at = () => client.clock.now().toISOString();
    try {
      const context = { now: client.clock.now(), historyHours: this.opts.historyHours ?? DEFAULT_HISTORY_HOURS };
      const { value: counts, answers } = await answersDuring(() => stream.pass(client, cache, context));
      this.keepOffset();
      cache.streams.recordSuccess(
        stream.name,
        at(),
        counts.fetched,
        answers.firstMs === null ? null : isoUtc(answers.firstMs),
        Date.now(),
      );
      this.stored(stream.name, counts, depth);
      return { stream: stream.name, counts };
    } catch (error) {
      // cancelled by stop: not a failure of the stream, and the cache may be closing
      if (this.stopped) return undefined;
      this.keepOffset();
      if (error instanceof AuthRejected) {
        // at once, so no pass queued behind this one sends the rejected key again
        this.halt();
        throw error;
      }
      const message = error instanceof Error ? error.message : String(error);
      cache.streams.recordError(stream.name, at(), message);
      // what was stored before the failure still counts
      const counts = error instanceof PartialFailure ? error.counts : undefined;
      if (counts) this.stored(stream.name, counts, depth);
      const failure: SyncError = { stream: stream.name, error: message, kind: kindOf(error) };
      if (error instanceof ServiceUnreachable && error.noConnection) failure.noConnection = true;
      if (error instanceof ApiError && error.notTheApi) failure.notTheApi = true;
      return { stream: stream.name, counts, error: failure };
    }
  }
}
