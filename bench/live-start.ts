import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pty from 'node-pty';
import { processMemoryMb, round1, sleep, writeResult } from './lib.js';
import { BENCH_KEY } from './prepare-world.js';
import { startServer } from './soak.js';
import { quantile } from './tui-render.js';

/** This checkout's built CLI, and another build's to compare in the same sitting (LIVE_START_DIST=/path/to/its/dist). */
const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const OTHER = process.env.LIVE_START_DIST ? join(process.env.LIVE_START_DIST, 'cli.js') : null;
const ROUNDS = Number(process.env.LIVE_START_ROUNDS ?? 5);
/** Long enough for the first sync passes and V8's memory reducer (8 s after the start), where the peaks were. */
const WATCH_MS = 14_000;
const SAMPLE_MS = 5;

/**
 * One start of the built monitor on an empty cache against the service, in a 160x45 pseudo-terminal: its peak RSS
 * (the kernel's high-water mark over WATCH_MS), when RSS peaked, when the first frame came (the tab bar and LIVE), and
 * the RSS held at the end.
 */
async function startOnce(cli: string, baseUrl: string) {
  const root = mkdtempSync(join(tmpdir(), 'svc-live-start-'));
  const child = pty.spawn(process.execPath, [cli, 'monitor', '--db', join(root, 'live.db'), '--no-notify'], {
    name: 'xterm-256color',
    cols: 160,
    rows: 45,
    env: {
      ...(process.env as Record<string, string>),
      SVC_BASE_URL: baseUrl,
      SVC_API_KEY: BENCH_KEY,
      XDG_DATA_HOME: join(root, 'data'),
      XDG_CONFIG_HOME: join(root, 'config'),
    },
  });
  const started = performance.now();
  let output = '';
  let firstFrameMs: number | null = null;
  child.onData((d) => {
    if (firstFrameMs !== null) return;
    output += d;
    if (output.includes('1 Board') && output.includes('LIVE')) firstFrameMs = performance.now() - started;
  });
  const exited = new Promise((done) => child.onExit(done));
  let peak = { atMs: 0, rss: 0 };
  let last = processMemoryMb(child.pid);
  while (performance.now() - started < WATCH_MS) {
    const now = processMemoryMb(child.pid);
    if (!now) throw new Error(`the monitor exited in its first seconds: ${output.slice(-400)}`);
    if (now.rss > peak.rss) peak = { atMs: performance.now() - started, rss: now.rss };
    last = now;
    await sleep(SAMPLE_MS);
  }
  child.write('q');
  await exited;
  rmSync(root, { recursive: true, force: true });
  return {
    peak_rss_mb: round1(last?.hwm ?? 0),
    peak_at_ms: Math.round(peak.atMs),
    first_frame_ms: firstFrameMs === null ? null : Math.round(firstFrameMs),
    held_at_end_mb: round1(last?.rss ?? 0),
  };
}

function summary(runs: Awaited<ReturnType<typeof startOnce>>[]) {
  const peaks = runs.map((r) => r.peak_rss_mb);
  return {
    peak_rss_mb: { median: quantile(peaks, 0.5), max: Math.max(...peaks) },
    first_frame_ms_median: quantile(
      runs.map((r) => r.first_frame_ms ?? Number.NaN).filter((v) => !Number.isNaN(v)),
      0.5,
    ),
    held_at_end_mb_median: quantile(
      runs.map((r) => r.held_at_end_mb),
      0.5,
    ),
    runs,
  };
}

/**
 * `npm run bench -- live-start`: the live monitor's first WATCH_MS on an empty cache, against the reference service
 * at x120 on a prepared 30-day world (its own process), ROUNDS times; with LIVE_START_DIST, the other build started
 * in turn with this one, so both meet the same machine. Goal: peak RSS under 150 MB (issue 21).
 */
export async function benchLiveStart(): Promise<object> {
  const server = await startServer(CLI);
  const mine: Awaited<ReturnType<typeof startOnce>>[] = [];
  const other: Awaited<ReturnType<typeof startOnce>>[] = [];
  try {
    for (let round = 0; round < ROUNDS; round++) {
      mine.push(await startOnce(CLI, server.baseUrl));
      if (OTHER) other.push(await startOnce(OTHER, server.baseUrl));
    }
  } finally {
    await server.stop();
  }
  const result = {
    what: `the live monitor's first ${WATCH_MS / 1000} s on an empty cache at 160x45, against the reference service at x120 on a prepared 30-day world, ${ROUNDS} starts${OTHER ? `, each followed by one of ${OTHER}` : ''}: peak RSS (VmHWM), when it peaked, the first frame`,
    this_build: summary(mine),
    other_build: OTHER ? { cli: OTHER, ...summary(other) } : null,
    goals: { peak_under_150_mb: mine.every((r) => r.peak_rss_mb < 150) },
  };
  writeResult('live-start', result);
  return result;
}
