import {
  type ReplayAlert,
  ReplayChains,
  type ReplayInstant,
  replayTraderAlerts,
} from '../../alerts/trader-alert-replay.js';
import { type Cache, type Running, readSliced } from '../../cache/index.js';
import type { City } from '../../contract/cities.js';
import type { SettlementConfig } from '../../contract/config.js';

export type { ReplayAlert } from '../../alerts/trader-alert-replay.js';

/**
 * Time travel's trader alerts for the Alerts pane (the rules' replay, alerts/trader-alert-replay.ts), worked out in
 * the background a slice at a time: opening Alerts on a day's afternoon runs some 400 rule steps, a third of a second
 * that used to hold the render. `at` answers at once with the last result (none at first) and starts the read of the
 * instant asked, if it is not the one worked out; its watchers are told when the new one is in
 * (`subscribe`/`getSnapshot`, React's useSyncExternalStore contract). The rules' steps run are kept between reads and
 * visits, so a step of time travel runs one more step a city.
 */
export class ReplayTraderAlerts {
  private readonly chains = new ReplayChains();
  /** What was last worked out, and for which instant and settings. */
  private done: { key: string; alerts: ReplayAlert[] } | undefined;
  private job: (Running & { key: string }) | undefined;
  private failure: { key: string; error: unknown } | undefined;
  private readonly watchers = new Set<() => void>();
  /** Bumped when a read brings a new result (or fails): what useSyncExternalStore compares. */
  private generation = 0;

  /**
   * Every alert the rules raised by `atMs`, newest first, as last worked out: for this instant once its read is in,
   * before that the instant's before (or none), less any alert it raised after `atMs`. Starts that read in the background; `working` says it runs.
   */
  at(
    cache: Cache,
    cities: readonly City[],
    instant: ReplayInstant,
    edgeMin: number,
    settlement: SettlementConfig,
  ): ReplayAlert[] {
    const key = JSON.stringify([instant.atMs, instant.date, edgeMin, settlement, cities.map((c) => c.city_id)]);
    if (this.failure?.key === key) throw this.failure.error;
    if (this.done?.key === key) {
      // a step back to the instant last worked out: a read of another instant still running is no longer asked for
      // (left running, it would replace this result with that instant's when it came in)
      if (this.job) this.stop();
    } else if (this.job?.key !== key) {
      this.job?.cancel();
      const read = replayTraderAlerts(cache, cities, instant, edgeMin, settlement, this.chains);
      const running = readSliced(
        read,
        (alerts) => {
          this.job = undefined;
          this.done = { key, alerts };
          this.changed();
        },
        (error) => {
          // thrown in the pane's next render, where the failure boundary ends the monitor with one line (a damaged
          // page), as a pane's read failing in its commit does
          this.job = undefined;
          this.failure = { key, error };
          this.changed();
        },
      );
      this.job = { ...running, key };
    }
    const alerts = this.done?.alerts ?? [];
    // meanwhile the last result, as of the instant asked (DESIGN 4): never an alert raised after it
    return this.done?.key === key ? alerts : alerts.filter((a) => a.createdMs <= instant.atMs);
  }

  /** Whether the instant last asked is still being worked out (its alerts are not the ones `at` returns yet). */
  working(): boolean {
    return this.job !== undefined;
  }

  readonly subscribe = (watcher: () => void): (() => void) => {
    this.watchers.add(watcher);
    return () => this.watchers.delete(watcher);
  };

  readonly getSnapshot = (): number => this.generation;

  /** Stops a read under way: the monitor ends. */
  stop(): void {
    this.job?.cancel();
    this.job = undefined;
  }

  private changed(): void {
    this.generation++;
    for (const watcher of this.watchers) watcher();
  }
}
