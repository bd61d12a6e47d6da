import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ratio, runToResult, spawnReady, writeResult } from './lib.js';
import { BENCH_KEY, BENCH_START, prepareWorld } from './prepare-world.js';
import { KEYS, quantile, type Run, runTui } from './tui-render.js';

interface PassRun {
  first_pass_requests: number;
  warmup_pairs: number;
  requests: number;
  rows: number;
  pass_ms: number[];
  fetch_parse_ms: number[];
  pass_median_ms: number;
  fetch_parse_median_ms: number;
  pass_best_ms: number;
  fetch_parse_best_ms: number;
}

function passes(baseUrl: string, nowIso: string): Promise<PassRun> {
  const cachePath = join(mkdtempSync(join(tmpdir(), 'svc-live-pass-')), 'cache.db');
  return runToResult<PassRun>('live-pass-process.mjs', [baseUrl, BENCH_KEY, cachePath, nowIso]);
}

/**
 * One pass of every stream (the eleven of DESIGN 3, 13 cities) once the 48 h window is cached, as the monitor runs
 * it each interval: its requests and time, as a ratio to the same requests fetched and JSON-parsed without storing
 * (goal >= 0.8). Eleven passes, each followed by its replay, in one process, after five such pairs untimed (compiled
 * code, as in a monitor that has polled for a while); the ratio is of the best of each (the run least disturbed by
 * the rest of the machine), the medians are reported beside it.
 */
export async function benchLiveStreams(): Promise<object> {
  const dir = prepareWorld();
  const service = await spawnReady('service-process.mjs', [dir, BENCH_KEY, String(BENCH_START)]);
  let run: PassRun;
  let tui: object;
  try {
    run = await passes(service.url, new Date(BENCH_START).toISOString());
    tui = await tuiWhileFilling(service.url);
  } finally {
    await service.stop();
  }
  const result = {
    what: 'one pass of all streams for 13 cities with the 48 h window cached, vs the same requests fetched and parsed (goal >= 0.8)',
    ...run,
    ratio: ratio(run.fetch_parse_best_ms, run.pass_best_ms),
    ratio_of_medians: ratio(run.fetch_parse_median_ms, run.pass_median_ms),
    tui,
  };
  writeResult('live-streams', result);
  return result;
}

/**
 * The TUI's key-to-frame p95 (tui-render's keys, every pane) while every stream polls each second into a cache that
 * starts empty (the first pass drains the 48 h window), against tui-render's own figure for an empty cache offline,
 * in the same run: two rounds of each, alternating; the keys compared are those that drew a frame in both.
 */
async function tuiWhileFilling(baseUrl: string): Promise<object> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-live-tui-'));
  const rounds: { offline: Run; live: Run }[] = [];
  for (let round = 0; round < 2; round++) {
    const offline = await runTui(join(dir, `offline-${round}.db`), join(dir, `offline-${round}.json`));
    const live = await runTui(join(dir, `live-${round}.db`), join(dir, `live-${round}.json`), {
      baseUrl,
      apiKey: BENCH_KEY,
    });
    rounds.push({ offline, live });
  }
  const figures = rounds.map(({ offline, live }) => {
    const both = KEYS.map((_, i) => i).filter((i) => offline.frames[i] && !offline.frames[i]?.late && live.frames[i]);
    const p95 = (r: Run) =>
      quantile(
        both.map((i) => r.frames[i]?.latency as number),
        0.95,
      );
    return {
      keys: both.length,
      p95_live_ms: p95(live),
      p95_offline_ms: p95(offline),
      ratio_p95: ratio(p95(live), p95(offline)),
    };
  });
  return {
    rounds: figures,
    peak_rss_mb: rounds.map((r) => ({ live: r.live.peak_rss_mb, offline: r.offline.peak_rss_mb })),
  };
}
