import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import xterm from '@xterm/headless';
import pty from 'node-pty';
import { openCache } from '../src/cache/index.js';
import { ApiClient } from '../src/client/api-client.js';
import { startService } from '../src/server/service.js';
import { backfill } from '../src/sync/backfill.js';
import { SyncEngine } from '../src/sync/sync-engine.js';
import { ratio, writeResult } from './lib.js';
import { BENCH_KEY, BENCH_START, prepareWorld } from './prepare-world.js';
import { growCache } from './tui-cache.js';

const ROWS = 1_000_000;
const POSITIONS = 10_000;
const COLS = 120;
const LINES = 40;
const NOW = new Date(BENCH_START + 6 * 3_600_000).toISOString();
// scroll the feed, switch panes, page deep into the 1M-row table in History, scroll there, come back
const KEYS = [
  ...'jjjjjjjjjj',
  '2',
  ...'jjjjj',
  '3',
  '4',
  '5',
  // History opens on mkta_buckets_history; five tables back is metar_observations_history, the 1M-row one
  ...'[[[[[',
  ...Array(8).fill('\u001b[6~'),
  ...'jjjjjjjjjj',
  ...'kkkkk',
  '1',
  ...'jjjjj',
  // the capture: open positions and their totals by family
  '2',
];

interface Run {
  first_frame_ms: number;
  key_to_frame_ms: { p50: number; p95: number };
  ink_render_ms: { p50: number; p95: number };
  renders: number;
  keys_without_a_new_frame: number;
  frames: ({ latency: number; renderTime: number } | null)[];
  peak_rss_mb: number;
  screen: string;
}

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round((sorted[Math.floor(q * (sorted.length - 1))] ?? 0) * 100) / 100;
};
const summary = (values: number[]) => ({ p50: quantile(values, 0.5), p95: quantile(values, 0.95) });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** One start of the TUI over `cachePath` in a pseudo-terminal: first frame, each key's next frame, peak RSS. */
async function runTui(cachePath: string, logPath: string): Promise<Run> {
  const script = fileURLToPath(new URL('./fixtures/tui-process.mjs', import.meta.url));
  const terminal = new xterm.Terminal({ cols: COLS, rows: LINES, allowProposedApi: true });
  const now = () => performance.timeOrigin + performance.now();
  const spawnedAt = now();
  const child = pty.spawn(process.execPath, [script, cachePath, logPath, NOW], {
    name: 'xterm-256color',
    cols: COLS,
    rows: LINES,
    env: process.env as Record<string, string>,
  });
  child.onData((d) => terminal.write(d));
  const exited = new Promise((resolve) => child.onExit(resolve));
  const screen = () => {
    const lines: string[] = [];
    for (let y = 0; y < LINES; y++) lines.push(terminal.buffer.active.getLine(y)?.translateToString(true) ?? '');
    return lines.join('\n');
  };
  // a full frame: the tab bar at the top and the status bar at the bottom are both drawn
  const deadline = Date.now() + 60_000;
  while (!(screen().includes('[1 Signals]') && screen().includes('OFFLINE'))) {
    if (Date.now() > deadline) {
      child.kill();
      throw new Error(`no full frame in 60 s:\n${screen()}`);
    }
    await sleep(5);
  }
  const firstFrameAt = now();
  await sleep(1000);
  const sentAt: number[] = [];
  for (const key of KEYS) {
    sentAt.push(now());
    child.write(key);
    await sleep(300);
  }
  const capture = screen();
  child.write('q');
  await exited;
  const log = JSON.parse(readFileSync(logPath, 'utf8')) as {
    renders: { at: number; renderTime: number }[];
    maxRssMb: number;
  };
  // a key's frame is the first render before the next key; a key that changes nothing (j in an empty list) has none
  const frames = sentAt.map((sent, i) => {
    const until = sentAt[i + 1] ?? Number.POSITIVE_INFINITY;
    const next = log.renders.find((r) => r.at > sent && r.at < until);
    return next ? { latency: next.at - sent, renderTime: next.renderTime } : null;
  });
  const drawn = frames.filter((f) => f !== null);
  return {
    first_frame_ms: Math.round(firstFrameAt - spawnedAt),
    key_to_frame_ms: summary(drawn.map((f) => f.latency)),
    ink_render_ms: summary(drawn.map((f) => f.renderTime)),
    renders: log.renders.length,
    keys_without_a_new_frame: frames.length - drawn.length,
    frames,
    peak_rss_mb: Math.round(log.maxRssMb),
    screen: capture,
  };
}

/** A cache synced from a fresh 30-day world, then grown to 1M METAR rows and 10k open positions; and an empty one. */
async function prepareCaches(dir: string): Promise<{ big: string; empty: string }> {
  const service = await startService({
    dataDir: prepareWorld(0),
    port: 0,
    apiKey: BENCH_KEY,
    rateLimitPerMinute: 1_000_000_000,
    tickMs: 3_600_000,
    logLevel: 'silent',
  });
  const big = join(dir, 'big.db');
  const cache = openCache(big);
  const client = new ApiClient({ baseUrl: service.baseUrl, apiKey: BENCH_KEY });
  try {
    await new SyncEngine({ client, cache }).runOnce();
    await backfill(
      client,
      cache,
      ['metar_observations_history', 'forecast_accuracy_daily', 'mkta_buckets_history'],
      {},
    );
  } finally {
    await client.close();
    await service.close();
  }
  growCache(cache, ROWS, POSITIONS);
  cache.checkpoint();
  cache.close();
  const empty = join(dir, 'empty.db');
  openCache(empty).close();
  return { big, empty };
}

/**
 * The TUI over a cache of 1,000,000 historical rows and 10,000 open positions against the same over an empty
 * cache: time from start to the first full frame, time from a keypress to the next frame (p50, p95) with Ink's own
 * render time of that frame, and peak RSS; as ratios big / empty, measured in one run (two rounds, alternating,
 * the better of each kept).
 */
export async function benchTuiRender(): Promise<object> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-tui-bench-'));
  try {
    const preparing = performance.now();
    const caches = await prepareCaches(dir);
    process.stderr.write(`caches ready in ${Math.round((performance.now() - preparing) / 1000)} s\n`);
    const runs: { big: Run; empty: Run }[] = [];
    for (let round = 0; round < 2; round++) {
      const empty = await runTui(caches.empty, join(dir, `empty-${round}.json`));
      const big = await runTui(caches.big, join(dir, `big-${round}.json`));
      runs.push({ big, empty });
    }
    const best = (pick: (r: { big: Run; empty: Run }) => Run) =>
      runs.map(pick).sort((a, b) => a.key_to_frame_ms.p50 - b.key_to_frame_ms.p50)[0] as Run;
    const big = best((r) => r.big);
    const empty = best((r) => r.empty);
    // the ratios compare like with like: only the keys that drew a frame in both (pane and table switches; in an
    // empty cache j/k move nothing)
    const both = KEYS.map((_, i) => i).filter((i) => big.frames[i] && empty.frames[i]);
    const latency = (run: Run) => summary(both.map((i) => run.frames[i]?.latency as number));
    const inkTime = (run: Run) => summary(both.map((i) => run.frames[i]?.renderTime as number));
    const figures = ({ screen: _s, frames: _f, ...rest }: Run) => rest;
    const result = {
      what: 'TUI over 1M historical rows + 10k open positions vs an empty cache: first frame, keypress to next frame, peak RSS (ratios big/empty)',
      big: { ...figures(big), keys_in_both: { key_to_frame_ms: latency(big), ink_render_ms: inkTime(big) } },
      empty: { ...figures(empty), keys_in_both: { key_to_frame_ms: latency(empty), ink_render_ms: inkTime(empty) } },
      ratios: {
        first_frame: ratio(big.first_frame_ms, empty.first_frame_ms),
        key_to_frame_p50: ratio(latency(big).p50, latency(empty).p50),
        key_to_frame_p95: ratio(latency(big).p95, latency(empty).p95),
        peak_rss: ratio(big.peak_rss_mb, empty.peak_rss_mb),
      },
      keys: KEYS.length,
      keys_compared: both.length,
      capture: big.screen.split('\n'),
    };
    writeResult('tui-render', result);
    return result;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
