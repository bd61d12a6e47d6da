import type { ServiceClock } from '../../client/service-clock.js';
import { answeredNotTheApi, everyAnswerNotTheApi, wrongBaseUrlLine } from '../../sync/base-url-hint.js';
import { FaultLog } from '../../sync/fault-log.js';
import { STREAMS } from '../../sync/streams.js';
import { addOutcome, type SyncEngine, type SyncSummary } from '../../sync/sync-engine.js';
import { passLine } from '../../sync/sync-summary.js';

export interface DaemonOptions {
  engine: SyncEngine;
  clock: ServiceClock;
  intervals: Record<string, number>;
  /** The address requests go to (for the wrong-base-URL hint). */
  baseUrl: string;
  /** `sync --json`: one NDJSON line a pass on stdout. */
  json: boolean;
  log: (line: string) => void;
}

/**
 * The headless daemon of DESIGN 3: polls every stream on its interval until SIGTERM or SIGINT (the engine's `stop`).
 * A pass is the stream passes that end together: from the first that ends after the pass before until no stream
 * runs or waits for its turn (a timed turn and the catch-ups it asked for, turns that fell together; the first pass
 * is every stream once, as `--once`), but no longer than the shortest poll interval (30 s by default), so a daemon
 * never idle (a fast world polled every second) still says what it did that often. Each pass is one NDJSON line
 * with `--json` (its counts summed over every stream pass in it). Faults and recoveries are lines of their own as
 * they come (FaultLog); the wrong-base-URL hint is said at the end of a pass once every stream's latest pass
 * answered 404 or HTML, and again only after one answered as the API.
 */
export async function runDaemon(opts: DaemonOptions): Promise<void> {
  const { engine, clock, log } = opts;
  const every = STREAMS.map((s) => `${s.name} ${(opts.intervals[s.name] ?? s.everyMs) / 1000}s`).join(', ');
  log(`polling until SIGTERM or Ctrl-C (${every})`);
  const faults = new FaultLog(log);
  const longestPassMs = Math.min(...STREAMS.map((s) => opts.intervals[s.name] ?? s.everyMs));
  let pass: SyncSummary | undefined;
  let passBeganMs = 0;
  // each stream's latest pass: whether it answered 404 or HTML
  const notTheApi = new Map<string, boolean>();
  let hinted = false;
  const endPass = () => {
    if (!pass) return;
    const ended = pass;
    pass = undefined;
    if (opts.json) process.stdout.write(passLine(ended, clock.now()));
    const wrongBase = notTheApi.size === STREAMS.length && everyAnswerNotTheApi([...notTheApi.values()]);
    if (wrongBase && !hinted) log(wrongBaseUrlLine(opts.baseUrl));
    hinted = wrongBase;
  };
  try {
    await engine.start((outcome) => {
      const now = Date.now();
      faults.outcome(outcome, now);
      notTheApi.set(outcome.stream, answeredNotTheApi(outcome));
      if (!pass) {
        pass = { streams: {}, errors: [] };
        passBeganMs = now;
      }
      addOutcome(pass, outcome);
      if (now - passBeganMs >= longestPassMs) endPass();
    }, endPass);
  } finally {
    // what the last pass did before the signal is still a line
    endPass();
  }
}
