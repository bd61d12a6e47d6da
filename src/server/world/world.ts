import type { CityAsset } from '../../contract/assets.js';
import { WorldMismatchError } from '../errors.js';
import { getMeta, setMeta } from '../store/open-store.js';
import type { WorldStore } from '../store/world-store.js';
import type { WorldContext } from './context.js';
import { midnight } from './daily.js';
import { DayAheadView } from './day-ahead.js';
import { edgeTick } from './edge-engine.js';
import { ForecastDesk } from './forecast.js';
import { lockAtPeak } from './fusion-locks.js';
import { insuranceCheck, openInsurancePick } from './insurance-engine.js';
import { Markets } from './market.js';
import { Models } from './models.js';
import { observe, publishForecasts } from './observations.js';
import { type Job, type JobKind, jobsBetween } from './schedule.js';
import { SKILL_WINDOW_DAYS } from './skill-window.js';
import { snapshotMarkets } from './snapshots.js';
import { svcMaxPick } from './strategies.js';
import { Weather } from './weather.js';

const DAY = 86_400_000;
const HOUR = 3_600_000;
export const HISTORY_DAYS = 30;
/** Catch-up is committed in slices, so a long fill never holds one huge transaction. */
const SLICE = 6 * HOUR;
/**
 * Days the world's memos keep behind its clock: a forecast reads the 30 days before it, each of those their own 30,
 * and so on; past three windows and a margin no new day asks again.
 */
const MEMO_DAYS = 100;

const META_PROCESSED = 'world_processed_until';
const META_SEED = 'world_seed';
const META_HISTORY_START = 'world_history_start';
/** The instant the first fill aims at, recorded before the fill: a server killed during it resumes to it. */
const META_FILL_TARGET = 'world_fill_target';

/**
 * The simulated world: applies every scheduled job exactly once, in order, up to the world clock. Everything it
 * writes follows from the seed and the instants processed, so two worlds with the same seed and start agree row
 * for row.
 */
export class World {
  readonly ctx: WorldContext;

  constructor(store: WorldStore, cities: readonly CityAsset[], seed: number) {
    const weather = new Weather(seed);
    const models = new Models(seed, weather);
    // one view of the day ahead: the venues price tomorrow from it, the desk publishes it once today has passed
    const dayAhead = new DayAheadView(weather, models);
    const desk = new ForecastDesk(weather, models, cities, dayAhead);
    const markets = new Markets(seed, weather, models, desk, dayAhead);
    this.ctx = { seed, cities, weather, models, markets, desk, dayAhead, store };
    const storedSeed = getMeta(store.db, META_SEED);
    if (storedSeed !== undefined && Number(storedSeed) !== seed) {
      throw new WorldMismatchError(`this data dir holds a world made with --seed ${storedSeed}, not ${seed}`);
    }
  }

  /** What `processedUntil` last read or wrote: every answer's `Date` asks it (service.ts), the store once. */
  private processed: number | undefined;
  /** The date the memos last forgot the days before (forgetOldDays). */
  private forgotBefore = '';

  /**
   * The world instant everything up to which has been applied; undefined before the first start. The service's
   * clock as its answers tell it (`Date`): a row of an instant before it is published, none after it is.
   */
  processedUntil(): number | undefined {
    if (this.processed !== undefined) return this.processed;
    const value = getMeta(this.ctx.store.db, META_PROCESSED);
    this.processed = value === undefined ? undefined : Number(value);
    return this.processed;
  }

  /**
   * Where a restart takes the world by default: the instant its first fill aimed at while that fill is unfinished
   * (a server killed during it), else where it stopped. Undefined before the first start.
   */
  resumesAt(): number | undefined {
    const processed = this.processedUntil();
    if (processed === undefined) return undefined;
    const target = getMeta(this.ctx.store.db, META_FILL_TARGET);
    return target === undefined ? processed : Math.max(processed, Number(target));
  }

  historyStart(): number | undefined {
    const value = getMeta(this.ctx.store.db, META_HISTORY_START);
    return value === undefined ? undefined : Number(value);
  }

  /**
   * First start: 30 days of history up to `startMs`, preceded by 30 days of forecast scores so every 30-day rule
   * has its full window from the first pick on.
   */
  initialise(startMs: number): void {
    if (this.processedUntil() !== undefined) return;
    const historyStart = Math.floor((startMs - HISTORY_DAYS * DAY) / HOUR) * HOUR;
    const scoresStart = historyStart - SKILL_WINDOW_DAYS * DAY;
    const { store } = this.ctx;
    store.transaction(() => {
      setMeta(store.db, META_SEED, String(this.ctx.seed));
      setMeta(store.db, META_HISTORY_START, String(historyStart));
      setMeta(store.db, META_FILL_TARGET, String(startMs));
      for (const job of jobsBetween(this.ctx.cities, scoresStart, historyStart, new Set(['daily']))) {
        midnight(this.ctx, job.city, job.at, true);
      }
      setMeta(store.db, META_PROCESSED, String(historyStart));
    });
    this.processed = historyStart;
    this.advanceTo(startMs);
  }

  /** Applies every job due before `targetMs`; returns how many ran. */
  advanceTo(targetMs: number): number {
    let from = this.processedUntil();
    if (from === undefined) throw new Error('the world has not been initialised');
    let ran = 0;
    const { store } = this.ctx;
    while (from < targetMs) {
      const to = Math.min(targetMs, from + SLICE);
      const sliceStart = from;
      store.transaction(() => {
        for (const job of jobsBetween(this.ctx.cities, sliceStart, to)) {
          this.apply(job);
          ran++;
        }
        setMeta(store.db, META_PROCESSED, String(to));
      });
      // once committed: a slice rolled back leaves the clock where the store is
      this.processed = to;
      from = to;
      this.forgetOldDays(to);
    }
    return ran;
  }

  /** Once a day of the clock: lets the memos forget the days no window reaches any more (MEMO_DAYS). */
  private forgetOldDays(ms: number): void {
    const before = new Date(ms - MEMO_DAYS * DAY).toISOString().slice(0, 10);
    if (before === this.forgotBefore) return;
    this.forgotBefore = before;
    const { weather, models, markets, desk, dayAhead } = this.ctx;
    for (const memo of [weather, models, markets, desk, dayAhead]) memo.forgetBefore(before);
  }

  private apply(job: Job): void {
    JOBS[job.kind](this.ctx, job.city, job.at);
  }
}

const JOBS: Record<JobKind, (ctx: WorldContext, city: CityAsset, at: number) => void> = {
  observe,
  snapshot: snapshotMarkets,
  forecast: publishForecasts,
  daily: (ctx, city, at) => midnight(ctx, city, at, false),
  'svc-max': svcMaxPick,
  lock: lockAtPeak,
  edge: edgeTick,
  'insurance-open': openInsurancePick,
  insurance: insuranceCheck,
};

/** Simulated time: `speed` simulated seconds pass each real second, from `startMs`. */
export class WorldClock {
  private readonly realStart = Date.now();

  constructor(
    readonly startMs: number,
    readonly speed: number,
  ) {}

  now(): number {
    return Math.floor(this.startMs + (Date.now() - this.realStart) * this.speed);
  }
}
