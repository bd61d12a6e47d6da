import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import xterm from '@xterm/headless';
import pty from 'node-pty';
import { type LoopBlock, watchLoop } from './fixtures/loop-watch.cjs';
import { processMemoryMb, processTreeRssMb, round1, sleep, writeResult } from './lib.js';
import { BENCH_KEY, prepareWorld } from './prepare-world.js';
import { quantile } from './tui-render.js';

/** The built CLI measured: this checkout's, or another build's (SOAK_DIST=/path/to/its/dist, to compare before/after). */
const CLI = process.env.SOAK_DIST
  ? join(process.env.SOAK_DIST, 'cli.js')
  : fileURLToPath(new URL('../dist/cli.js', import.meta.url));
/** Which monitors to soak (SOAK_MODES=live or demo for one of them). */
const MODES = (process.env.SOAK_MODES ?? 'live,demo').split(',');
/** How long each monitor runs (issue 21: ten minutes), and how often it is looked at. */
const MINUTES = Number(process.env.SOAK_MINUTES ?? 10);
const SAMPLE_MS = 10_000;
/** A key every few seconds, as a trader glances and moves: panes and rows in turn. */
const KEY_EVERY_MS = Number(process.env.SOAK_KEY_EVERY_MS ?? 4_000);
const KEYS = ['1', 'j', 'j', 'o', '2', 'j', '\u001b[6~', 'g', '3', 'j', '4', 'j', '5', 'j', 'u', 'u', '6', 'j', 'k'];
/** The reference world's pace: two simulated hours a real minute, as the demo runs. */
const SPEED = 120;
/** Samples before this are the start (first sync pass, the demo's fill): the trend is read after it. */
const WARM_UP_MS = 120_000;

/** Least-squares slope of `ys` over `xs` (per unit of x). */
function slope(xs: number[], ys: number[]): number {
  const n = xs.length;
  if (n < 2) return 0;
  const mx = xs.reduce((a, b) => a + b, 0) / n;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  const num = xs.reduce((a, x, i) => a + (x - mx) * ((ys[i] as number) - my), 0);
  const den = xs.reduce((a, x) => a + (x - mx) ** 2, 0);
  return den === 0 ? 0 : num / den;
}

/** The loop watcher: preloaded into the monitor, and run in this process too. */
const LOOP_WATCH = fileURLToPath(new URL('./fixtures/loop-watch.cjs', import.meta.url));
/** A block of a loop this long or longer is recorded (the monitor's and this process's). */
const BLOCK_MIN_MS = 50;

/** The five longest of `blocks`, each dated in s from `startedAt` (epoch ms) and with its wait for a core. */
const longestBlocks = (blocks: LoopBlock[], startedAt: number) =>
  [...blocks]
    .sort((a, b) => b.ms - a.ms)
    .slice(0, 5)
    .map((b) => ({ atS: round1((b.at - startedAt) / 1000), ms: b.ms, runQueueMs: b.runQueueMs }));

/** How long a key may take to draw before it counts as one that drew nothing. */
const KEY_DEADLINE_MS = 2_000;

/**
 * The screen above the status bar: what a key can change. The status bar's clock changes every second whatever the
 * key did, so a key's frame is the first that changes something above it.
 */
function aboveStatusBar(terminal: xterm.Terminal): string {
  const buffer = terminal.buffer.active;
  const lines: string[] = [];
  for (let y = 0; y < terminal.rows; y++)
    lines.push(buffer.getLine(buffer.viewportY + y)?.translateToString(true) ?? '');
  // the status bar is the last line that starts with the mode: the demo's banner under the tab bar starts with it too
  const bar = lines.findLastIndex((line) => /^ (LIVE|DEMO|OFFLINE) /.test(line));
  return (bar < 0 ? lines : lines.slice(0, bar)).join('\n');
}

interface SentKey {
  sentAt: number;
  before: string;
  drawnAt?: number;
  /** The first line above the status bar that the frame taken for the key changed (a slow key is then read by it). */
  changed?: string;
}

/** The first line of `after` that differs from `before`'s, trimmed: what a frame changed. */
function firstChangedLine(before: string, after: string): string {
  const was = before.split('\n');
  const now = after.split('\n');
  const i = now.findIndex((line, n) => line !== was[n]);
  return (now[i] ?? '').trim().slice(0, 100);
}

const mean = (v: number[]) => (v.length ? v.reduce((a, b) => a + b, 0) / v.length : 0);

/**
 * The built monitor in a 160x45 pseudo-terminal for MINUTES: a key every KEY_EVERY_MS, RSS every SAMPLE_MS. A key's
 * latency is to the first bytes after it that change the screen above the status bar (read in a headless xterm): the
 * first bytes after a key that changes nothing (j on a table without rows, the pane already shown) are the clock's
 * next tick, up to a second later, which is no wait of the key's. Such keys are counted apart (unless a sync pass
 * redraws the pane within KEY_DEADLINE_MS: then that frame is taken for the key's, and the line it changed says so).
 * Its figures: peak RSS, the trend after the start (MB a minute by least squares, and the mean of the first and last
 * thirds), key latency p50/p95/max, the slowest keys with the line their frame changed, and the event loop's longest
 * blocks in the monitor and in this process (bench/fixtures/loop-watch.cjs), so a slow key is placed: the monitor's
 * work, the soak's own, or the machine's (the load average).
 */
async function soakMonitor(mode: string, args: string[], env: Record<string, string>, root: string) {
  // the monitor's main thread records its own blocks, so a slow key is its process's or this one's (or the machine's)
  const monitorBlocks = join(root, `${mode}-blocks.jsonl`);
  const nodeOptions = [process.env.NODE_OPTIONS, `--require=${LOOP_WATCH}`].filter(Boolean).join(' ');
  const child = pty.spawn(process.execPath, [CLI, ...args], {
    name: 'xterm-256color',
    cols: 160,
    rows: 45,
    env: {
      ...(process.env as Record<string, string>),
      ...env,
      NODE_OPTIONS: nodeOptions,
      LOOP_WATCH_OUT: monitorBlocks,
      LOOP_WATCH_MIN_MS: String(BLOCK_MIN_MS),
    },
  });
  const ownBlocks: LoopBlock[] = [];
  const ownWatch = watchLoop({ everyMs: 10, minMs: BLOCK_MIN_MS, onBlock: (b) => ownBlocks.push(b) });
  const terminal = new xterm.Terminal({ cols: 160, rows: 45, allowProposedApi: true });
  /** The key waiting for its frame: when it was sent, the screen above the status bar then, and when it drew. */
  let key: SentKey | null = null;
  let output = '';
  child.onData((d) => {
    const at = performance.now();
    // xterm parses asynchronously: the screen is compared once these bytes are on it, and dated when they came
    terminal.write(d, () => {
      if (!key || key.drawnAt !== undefined) return;
      if (at < key.sentAt) key.before = aboveStatusBar(terminal);
      else {
        const after = aboveStatusBar(terminal);
        if (after === key.before) return;
        key.drawnAt = at;
        key.changed = firstChangedLine(key.before, after);
      }
    });
    if (output.length < 1_000_000) output += d;
  });
  const exited = new Promise((done) => child.onExit(done));
  const started = performance.now();
  const startedAt = performance.timeOrigin + started;
  while (!output.includes('1 Board')) {
    if (performance.now() - started > 180_000) throw new Error('no first frame in 3 minutes');
    await sleep(100);
  }
  /** Every SAMPLE_MS: the monitor's process's RSS (`self`) and its whole tree's (`tree`, issue 34's figure). */
  const samples: { atMs: number; self: number; tree: number; load: number }[] = [];
  const latencies: number[] = [];
  /** The pane keys' (a digit): a pane switch always redraws, so no sync pass's frame is ever taken for one of them. */
  const paneLatencies: number[] = [];
  let drewNothing = 0;
  /** Every key that drew: which, when (s from the monitor's start) and how long, for the five slowest in the result. */
  const slowest: { key: string; atS: number; ms: number; changed?: string }[] = [];
  const until = performance.now() + MINUTES * 60_000;
  let nextSample = performance.now();
  let nextKey = performance.now() + KEY_EVERY_MS;
  let k = 0;
  while (performance.now() < until) {
    const now = performance.now();
    if (now >= nextSample) {
      const rss = processMemoryMb(child.pid)?.rss;
      const tree = processTreeRssMb(child.pid);
      if (rss && tree) samples.push({ atMs: now - started, self: rss, tree, load: loadavg()[0] ?? 0 });
      nextSample += SAMPLE_MS;
    }
    if (now >= nextKey) {
      // every byte written so far on the screen first: the key's `before`
      await new Promise<void>((parsed) => terminal.write('', parsed));
      const sent: SentKey = { sentAt: performance.now(), before: aboveStatusBar(terminal) };
      key = sent;
      const pressed = KEYS[k++ % KEYS.length] as string;
      child.write(pressed);
      while (sent.drawnAt === undefined && performance.now() < sent.sentAt + KEY_DEADLINE_MS) await sleep(1);
      if (sent.drawnAt === undefined) drewNothing++;
      else {
        const ms = sent.drawnAt - sent.sentAt;
        latencies.push(ms);
        if (/^[1-6]$/.test(pressed)) paneLatencies.push(ms);
        slowest.push({
          key: JSON.stringify(pressed),
          atS: round1((sent.sentAt - started) / 1000),
          ms: round1(ms),
          changed: sent.changed,
        });
      }
      key = null;
      nextKey += KEY_EVERY_MS;
    }
    await sleep(50);
  }
  const hwm = processMemoryMb(child.pid)?.hwm;
  if (hwm === undefined) throw new Error('the monitor exited before the soak ended');
  child.write('q');
  await exited;
  terminal.dispose();
  clearInterval(ownWatch);
  const blocks: LoopBlock[] = existsSync(monitorBlocks)
    ? readFileSync(monitorBlocks, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line))
    : [];
  const after = samples.filter((s) => s.atMs >= WARM_UP_MS);
  const third = Math.max(1, Math.floor(after.length / 3));
  const treeAfter = after.map((s) => s.tree);
  const half = Math.floor(treeAfter.length / 2);
  return {
    // issue 34's figures, the whole process tree's (the monitor's process and any it starts): its peak (the largest
    // sample, or the process's own high-water mark if larger), what it held once started (the median of the samples
    // after WARM_UP_MS, with their range), and the trend as the median of the second half of those samples less the
    // median of the first half
    tree_peak_rss_mb: round1(Math.max(hwm, ...samples.map((s) => s.tree))),
    tree_held_rss_mb: quantile(treeAfter, 0.5),
    tree_held_range_mb: [round1(Math.min(...treeAfter)), round1(Math.max(...treeAfter))],
    tree_second_half_less_first_half_mb: round1(
      quantile(treeAfter.slice(half), 0.5) - quantile(treeAfter.slice(0, half), 0.5),
    ),
    tree_rss_mb_every_10_s: samples.map((s) => round1(s.tree)),
    minutes: MINUTES,
    keys: latencies.length,
    // keys that changed nothing above the status bar in KEY_DEADLINE_MS (not in the latencies)
    keys_drawing_nothing: drewNothing,
    key_latency_ms: {
      p50: quantile(latencies, 0.5),
      p95: quantile(latencies, 0.95),
      max: round1(Math.max(0, ...latencies)),
    },
    // the same for the pane keys alone: while syncs redraw the screen every few seconds (the demo's first minutes),
    // a key that changes nothing has the next sync's frame taken for its own, up to KEY_DEADLINE_MS; a pane key never
    pane_key_latency_ms: {
      keys: paneLatencies.length,
      p50: quantile(paneLatencies, 0.5),
      p95: quantile(paneLatencies, 0.95),
      max: round1(Math.max(0, ...paneLatencies)),
    },
    // the five slowest keys that drew: a stall is then found by its key, its time and the line its frame changed
    slowest_keys: slowest.sort((a, b) => b.ms - a.ms).slice(0, 5),
    // the event loop's longest blocks over the soak (s from the monitor's start, ms, of which waiting for a core):
    // the monitor's main thread (its start included), and this process's, which reads the screen and dates the keys
    monitor_loop_blocks: longestBlocks(blocks, startedAt),
    soak_loop_blocks: longestBlocks(ownBlocks, startedAt),
    // the machine's one-minute load average at the RSS samples: the soak shares two cores with whatever else runs
    load_average_max: round1(Math.max(0, ...samples.map((s) => s.load))),
    peak_rss_mb: round1(hwm),
    peak_rss_sampled_mb: round1(Math.max(0, ...samples.map((s) => s.self))),
    rss_trend_mb_a_minute: round1(
      slope(
        after.map((s) => s.atMs / 60_000),
        after.map((s) => s.self),
      ),
    ),
    rss_first_and_last_third_mb: [
      round1(mean(after.slice(0, third).map((s) => s.self))),
      round1(mean(after.slice(-third).map((s) => s.self))),
    ],
    rss_mb_every_10_s: samples.map((s) => round1(s.self)),
  };
}

/** The reference service at x120 in its own process (`cli`'s build), on a prepared 30-day world: `listening on URL` once ready. */
export async function startServer(cli = CLI): Promise<{ baseUrl: string; stop(): Promise<void> }> {
  const dir = prepareWorld();
  const server: ChildProcess = spawn(
    process.execPath,
    [cli, 'server', '--port', '0', '--speed', String(SPEED), '--data-dir', dir, '--api-key', BENCH_KEY],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const baseUrl = await new Promise<string>((resolve, reject) => {
    let out = '';
    server.stdout?.on('data', (d) => {
      out += d;
      const url = out.match(/^listening on (\S+)$/m)?.[1];
      if (url) resolve(url);
    });
    server.once('exit', (code) => reject(new Error(`the server exited ${code} before it listened`)));
  });
  return {
    baseUrl,
    stop: () =>
      new Promise((done) => {
        server.once('exit', () => done());
        server.kill('SIGTERM');
      }),
  };
}

/**
 * `npm run bench -- soak`: the live monitor against the reference service at x120, then the demo (its world on a
 * worker thread of the same process, so in its figures), each for MINUTES with a key every few seconds and RSS every
 * 10 s. Goals (issue 34, the whole process tree): the live monitor's peak under 150 MB and held under 130, the demo's
 * under 250 and 200, no trend.
 */
export async function benchSoak(): Promise<object> {
  const root = mkdtempSync(join(tmpdir(), 'svc-soak-'));
  try {
    let live: Awaited<ReturnType<typeof soakMonitor>> | null = null;
    if (MODES.includes('live')) {
      const server = await startServer();
      try {
        live = await soakMonitor(
          'live',
          ['monitor', '--db', join(root, 'live.db'), '--no-notify'],
          {
            SVC_BASE_URL: server.baseUrl,
            SVC_API_KEY: BENCH_KEY,
            XDG_DATA_HOME: join(root, 'live-data'),
            XDG_CONFIG_HOME: join(root, 'config'),
          },
          root,
        );
      } finally {
        await server.stop();
      }
    }
    const demo = MODES.includes('demo')
      ? await soakMonitor(
          'demo',
          ['monitor', '--demo', '--no-notify'],
          { XDG_DATA_HOME: join(root, 'demo-data'), XDG_CONFIG_HOME: join(root, 'config') },
          root,
        )
      : null;
    const ran = [live, demo].filter((m) => m !== null);
    const result = {
      what: `the monitor at 160x45 for ${MINUTES} minutes, a key every ${KEY_EVERY_MS / 1000} s, RSS every ${SAMPLE_MS / 1000} s: live against the reference service at x${SPEED}, then the demo (its world on a worker thread of the same process: in its figures)`,
      live,
      demo,
      goals: {
        // issue 34: the whole tree's peak and what it holds once started, by mode
        live_peak_under_150_mb: live ? live.tree_peak_rss_mb < 150 : null,
        live_held_under_130_mb: live ? live.tree_held_rss_mb < 130 : null,
        demo_peak_under_250_mb: demo ? demo.tree_peak_rss_mb < 250 : null,
        demo_held_under_200_mb: demo ? demo.tree_held_rss_mb < 200 : null,
        // under 1 MB a minute after the start (10 MB over the ten minutes at most), and the halves within 5 MB
        no_trend: ran.every(
          (m) => Math.abs(m.rss_trend_mb_a_minute) < 1 && Math.abs(m.tree_second_half_less_first_half_mb) < 5,
        ),
      },
    };
    // SOAK_RESULT=NAME writes bench/results/NAME.json instead: a build soaked beside another in the same sitting
    writeResult(process.env.SOAK_RESULT ?? 'soak', result);
    return result;
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
