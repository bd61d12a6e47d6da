import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import xterm from '@xterm/headless';
import pty from 'node-pty';
import type { PaneId } from '../src/tui/keys.js';
import { FIRST_PANE, PANE_BENCH_KEYS, PANE_TITLES, PANES } from '../src/tui/panes/pane-registry.js';
import type { LoopBlock } from './fixtures/loop-watch.cjs';
import { ratio, round1, sleep, writeResult } from './lib.js';
import { BENCH_START } from './prepare-world.js';
import { POSITIONS, ROWS, tuiCaches } from './tui-fixture.js';

/** The terminal of issue 21's measurements: a frame of 160 columns by 45 rows. */
const COLS = 160;
const LINES = 45;
const NOW = new Date(BENCH_START + 6 * 3_600_000).toISOString();
/** Time between keys, as a person types (not back to back): every frame is drawn well within it. */
const KEY_GAP_MS = 250;
/** Seconds of the idle run: a quiet screen whose clock ticks each second. */
const IDLE_SECONDS = Number(process.env.TUI_BENCH_IDLE_SECONDS ?? 10);
/**
 * Issue 21's goals: a key's frame within one 60 Hz frame, within 1.5x of the empty cache, under 150 MB. Issue 34's:
 * a pane's p95 at most 2.5x the bare screen's (the same keys on a program with no framework), and no block of the
 * event loop over 16 ms while the keys are pressed on the big cache.
 */
const GOAL = { p95Ms: 16.7, ratio: 1.5, rssMb: 150, idleBytesPerSecond: 2_000, toBare: 2.5, blockMs: 16 } as const;
/** Visits to each pane a run: each visit is the pane's number key, then its keys. */
const VISITS = 3;
/** Rounds of (empty, big), interleaved; a pane's figures are the median of its rounds. */
const ROUNDS = Number(process.env.TUI_BENCH_ROUNDS ?? 3);
/**
 * Extra node flags for the monitor's process, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` to profile it. The monitor
 * measured is this checkout's dist/, or another build's: TUI_BENCH_DIST=/path/to/its/dist (tui-process.mjs).
 */
const NODE_ARGS = (process.env.TUI_BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);

/**
 * What the bench does on each pane: its registry entry's bench keys (src/tui/panes/pane-registry.ts; the board's
 * strips' with the board's), so a new pane is measured with no line here. The number key comes from the pane order.
 */
const PANE_KEYS = PANE_BENCH_KEYS;

const digitOf = (pane: PaneId) => String(PANES.indexOf(pane) + 1);

/** Every key of a run, with the pane it is pressed on. */
export const KEYS: { pane: PaneId; key: string }[] = [];
for (let visit = 0; visit < VISITS; visit++) {
  for (const p of PANE_KEYS) {
    const keys = [digitOf(p.pane), ...(visit === 0 ? (p.first ?? []) : []), ...p.keys];
    for (const key of keys) KEYS.push({ pane: p.pane, key });
  }
}
// the capture: open positions and their totals by family
KEYS.push({ pane: 'positions', key: digitOf('positions') });

/** A key's frame: the first render after it, `late` when that came only after the next key was sent. */
type Frame = { latency: number; renderTime: number; late: boolean } | null;
export interface Run {
  first_frame_ms: number;
  renders: number;
  frames: Frame[];
  /**
   * The event loop's longest block while the keys were pressed (ms): the time its timer came late less the time the
   * UI's thread waited meanwhile for a core (a wait for a core of the shared machine is no block); the five longest,
   * each with what it was made of (lateness, run-queue wait, the process's CPU time: every thread's, the GC's pauses
   * within it) and the key pressed last before it began (pane, key, how long after it); and the longest lateness
   * whatever its cause.
   */
  longest_block_ms: number;
  longest_blocks: {
    ms: number;
    late: number;
    runQueueMs: number;
    cpuMs: number;
    gcMs: number;
    after: string | null;
  }[];
  longest_late_ms: number;
  /** The garbage collector's longest pauses on the UI's thread while the keys were pressed (ms, with their kind). */
  longest_gc_ms: { ms: number; kind: string }[];
  peak_rss_mb: number;
  peak_memory_mb: Record<string, number>;
  screen: string;
}

export const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round((sorted[Math.floor(q * (sorted.length - 1))] ?? 0) * 100) / 100;
};
const median = (values: number[]) => quantile(values, 0.5);

/**
 * One start of the TUI over `cachePath` in a pseudo-terminal: first frame, each key's next frame, peak RSS. With
 * `sync` the monitor also runs every stream against that service each second (tui-process.mjs), filling the cache
 * while the keys are pressed.
 */
export async function runTui(
  cachePath: string,
  logPath: string,
  sync?: { baseUrl: string; apiKey: string },
  script = TUI_PROCESS,
): Promise<Run> {
  const { child, exited, screen, firstFrameAt, spawnedAt, now } = await startTui(
    cachePath,
    logPath,
    { ...(sync ? { TUI_BENCH_SYNC: `${sync.baseUrl} ${sync.apiKey}` } : {}) },
    script,
  );
  await sleep(1000);
  const sentAt: number[] = [];
  for (const { key } of KEYS) {
    sentAt.push(now());
    child.write(key);
    await sleep(KEY_GAP_MS);
  }
  const capture = screen();
  // TUI_BENCH_HEAP_SNAPSHOT=FILE: the monitor's heap after the keys, written before it quits (tui-process.mjs)
  const snapshot = process.env.TUI_BENCH_HEAP_SNAPSHOT;
  if (snapshot) {
    child.kill('SIGUSR2');
    while (!existsSync(snapshot)) await sleep(100);
  }
  child.write('q');
  await exited;
  const log = readLog(logPath);
  // a key's frame is the first render before the next key; a key that changes nothing (j in an empty list) has
  // none. One that drew in the empty cache but not before the next key in the big one was late, not absent: its
  // latency is then to the first render after it, whichever key that render also answers
  const frames = sentAt.map((sent, i) => {
    const until = sentAt[i + 1] ?? Number.POSITIVE_INFINITY;
    const next = log.renders.find((r) => r.at > sent);
    if (!next) return null;
    return { latency: next.at - sent, renderTime: next.renderTime, late: next.at >= until };
  });
  const keysFrom = sentAt[0] ?? 0;
  const keysUntil = (sentAt[sentAt.length - 1] ?? 0) + KEY_GAP_MS;
  const during = log.blocks.filter((b) => b.at >= keysFrom && b.at <= keysUntil);
  const blocks = during
    .map((b) => {
      // what held the loop: the key pressed last before the block began, and the GC's pauses within it
      const began = b.at - b.ms;
      const k = sentAt.findLastIndex((sent) => sent <= began);
      const gcMs = log.gcs.filter((g) => g.at >= began && g.at <= b.at).reduce((n, g) => n + g.ms, 0);
      return {
        ms: round1(Math.max(0, b.ms - b.runQueueMs)),
        late: b.ms,
        runQueueMs: b.runQueueMs,
        cpuMs: b.cpuMs,
        gcMs: round1(gcMs),
        after:
          k < 0 ? null : `${KEYS[k]?.pane} ${JSON.stringify(KEYS[k]?.key)} +${Math.round(began - (sentAt[k] ?? 0))} ms`,
      };
    })
    .sort((a, b) => b.ms - a.ms);
  return {
    first_frame_ms: Math.round(firstFrameAt - spawnedAt),
    renders: log.renders.length,
    frames,
    longest_block_ms: blocks[0]?.ms ?? 0,
    longest_blocks: blocks.slice(0, 5),
    longest_late_ms: Math.max(0, ...during.map((b) => b.ms)),
    longest_gc_ms: log.gcs
      .filter((g) => g.at >= keysFrom && g.at <= keysUntil)
      .sort((a, b) => b.ms - a.ms)
      .slice(0, 5)
      .map(({ ms, kind }) => ({ ms, kind })),
    peak_rss_mb: Math.round(log.maxRssMb),
    peak_memory_mb: log.peakMemory,
    screen: capture,
  };
}

interface TuiLog {
  renders: { at: number; renderTime: number }[];
  blocks: LoopBlock[];
  gcs: { at: number; ms: number; kind: string }[];
  maxRssMb: number;
  peakMemory: Record<string, number>;
}

const readLog = (logPath: string) => JSON.parse(readFileSync(logPath, 'utf8')) as TuiLog;

/**
 * The TUI idle over `cachePath` with its clock running: bytes written a second over IDLE_SECONDS after the first
 * frame (the clock's line and little else), and whether any of them cleared the whole screen.
 */
export async function runIdle(
  cachePath: string,
  logPath: string,
): Promise<{ bytes_per_second: number; clears: number }> {
  const { child, exited, output } = await startTui(cachePath, logPath, { TUI_BENCH_TICKING: '1' });
  await sleep(1500);
  const from = output().length;
  const started = performance.now();
  await sleep(IDLE_SECONDS * 1000);
  const idle = output().slice(from);
  const seconds = (performance.now() - started) / 1000;
  child.write('q');
  await exited;
  return {
    bytes_per_second: Math.round(Buffer.byteLength(idle) / seconds),
    clears: idle.split('\u001b[2J').length - 1 + idle.split('\u001b[3J').length - 1,
  };
}

/** The monitor offline over a cache, as the CLI starts it (fixtures/tui-process.mjs). */
const TUI_PROCESS = fileURLToPath(new URL('./fixtures/tui-process.mjs', import.meta.url));
/** The floor: a full-screen program with no framework, given the same keys (fixtures/bare-screen-process.mjs). */
const BARE_SCREEN_PROCESS = fileURLToPath(new URL('./fixtures/bare-screen-process.mjs', import.meta.url));
/** The framework's floor: the same screen and keys drawn by a minimal Ink app (fixtures/ink-screen-process.mjs). */
const INK_SCREEN_PROCESS = fileURLToPath(new URL('./fixtures/ink-screen-process.mjs', import.meta.url));

/** A fixture process (the monitor's, or the bare screen's) in a pseudo-terminal, once its first full frame is on screen. */
async function startTui(cachePath: string, logPath: string, env: Record<string, string>, script = TUI_PROCESS) {
  const terminal = new xterm.Terminal({ cols: COLS, rows: LINES, allowProposedApi: true });
  const now = () => performance.timeOrigin + performance.now();
  const spawnedAt = now();
  const child = pty.spawn(process.execPath, [...NODE_ARGS, script, cachePath, logPath, NOW], {
    name: 'xterm-256color',
    cols: COLS,
    rows: LINES,
    env: { ...(process.env as Record<string, string>), ...env },
  });
  let written = '';
  child.onData((d) => {
    written += d;
    terminal.write(d);
  });
  const exited = new Promise((resolve) => child.onExit(resolve));
  const screen = () => {
    const lines: string[] = [];
    for (let y = 0; y < LINES; y++) lines.push(terminal.buffer.active.getLine(y)?.translateToString(true) ?? '');
    return lines.join('\n');
  };
  // a full frame: the landing pane's tab at the top and the status bar at the bottom are both drawn
  const landing = `[1 ${PANE_TITLES[FIRST_PANE]}]`;
  const deadline = Date.now() + 60_000;
  const mode = env.TUI_BENCH_SYNC ? ' LIVE ' : 'OFFLINE';
  while (!(screen().includes(landing) && screen().includes(mode))) {
    if (Date.now() > deadline) {
      child.kill();
      throw new Error(`no full frame in 60 s:\n${screen()}`);
    }
    await sleep(5);
  }
  const firstFrameAt = now();
  return { child, exited, screen, firstFrameAt, spawnedAt, now, output: () => written };
}

/**
 * One round's figures for one pane: key-to-frame p95 over every key on it that drew a frame (in the big cache: the
 * trader's experience), and over the keys that drew in both caches (like with like: in an empty cache j/k move
 * nothing), big against empty.
 */
function paneFigures(pane: PaneId, big: Run, empty: Run) {
  const on = KEYS.map((k, i) => (k.pane === pane ? i : -1)).filter((i) => i >= 0);
  const latencies = (run: Run, keys: number[]) => keys.map((i) => run.frames[i]?.latency as number);
  // in time: a frame before the next key; late in the big cache counts where the empty cache drew in time
  const inTime = (run: Run, i: number) => run.frames[i] != null && !run.frames[i]?.late;
  const drawn = (run: Run) => on.filter((i) => inTime(run, i) || (run === big && inTime(empty, i) && big.frames[i]));
  const both = on.filter((i) => inTime(empty, i) && big.frames[i]);
  return {
    keys: on.length,
    p95_big_ms: quantile(latencies(big, drawn(big)), 0.95),
    p95_empty_ms: quantile(latencies(empty, drawn(empty)), 0.95),
    keys_in_both: both.length,
    p95_big_in_both_ms: quantile(latencies(big, both), 0.95),
    p95_empty_in_both_ms: quantile(latencies(empty, both), 0.95),
    ratio_p95: ratio(quantile(latencies(big, both), 0.95), quantile(latencies(empty, both), 0.95)),
    /** Each key's latency (ms, null: no frame), big then empty: which keys are slow. */
    each_big_ms: on.map((i) => (drawn(big).includes(i) ? Math.round(big.frames[i]?.latency as number) : null)),
    each_empty_ms: on.map((i) => (inTime(empty, i) ? Math.round(empty.frames[i]?.latency as number) : null)),
    ink_render_p50_ms: {
      big: quantile(
        drawn(big).map((i) => big.frames[i]?.renderTime as number),
        0.5,
      ),
      empty: quantile(
        drawn(empty).map((i) => empty.frames[i]?.renderTime as number),
        0.5,
      ),
    },
  };
}

/**
 * The TUI over a cache of 30 days of intraday history, 1,000,000 historical rows and 10,000 open positions against
 * the same over an empty cache, in a pseudo-terminal: start to first full frame, keypress to next frame (p95) on
 * every pane, peak RSS of the monitor's process. Rounds alternate empty and big; each round's ratios are measured
 * within it, and a pane's figures are the median over the rounds.
 */
export async function benchTuiRender(): Promise<object> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-tui-bench-'));
  try {
    const preparing = performance.now();
    const caches = await tuiCaches(dir);
    const seconds = Math.round((performance.now() - preparing) / 1000);
    process.stderr.write(
      `caches ${caches.built ? 'built' : 'copied from bench/fixtures/tui-render'} in ${seconds} s\n`,
    );
    const rounds: { big: Run; empty: Run; bare: Run; ink: Run }[] = [];
    const idle: { big: Awaited<ReturnType<typeof runIdle>>; empty: Awaited<ReturnType<typeof runIdle>> }[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const empty = await runTui(caches.empty, join(dir, `empty-${round}.json`));
      const big = await runTui(caches.big, join(dir, `big-${round}.json`));
      const bare = await runTui(caches.empty, join(dir, `bare-${round}.json`), undefined, BARE_SCREEN_PROCESS);
      const ink = await runTui(caches.empty, join(dir, `ink-${round}.json`), undefined, INK_SCREEN_PROCESS);
      rounds.push({ big, empty, bare, ink });
      idle.push({
        empty: await runIdle(caches.empty, join(dir, `idle-empty-${round}.json`)),
        big: await runIdle(caches.big, join(dir, `idle-big-${round}.json`)),
      });
    }
    // the floor of each round: the bare screen's p95 over every key (each one draws a whole frame there)
    const p95OfEveryKey = (run: Run) =>
      quantile(
        run.frames.flatMap((f) => (f ? [f.latency] : [])),
        0.95,
      );
    const bareP95 = rounds.map(({ bare }) => p95OfEveryKey(bare));
    // and the framework's: the same keys on the same screen drawn by a minimal Ink app
    const inkP95 = rounds.map(({ ink }) => p95OfEveryKey(ink));
    const perRound = rounds.map(({ big, empty }, round) =>
      Object.fromEntries(
        PANE_KEYS.map(({ pane }) => {
          const figures = paneFigures(pane, big, empty);
          return [
            pane,
            {
              ...figures,
              ratio_to_bare_p95: ratio(figures.p95_big_ms, bareP95[round] as number),
              ratio_to_ink_p95: ratio(figures.p95_big_ms, inkP95[round] as number),
            },
          ];
        }),
      ),
    );
    const panes = Object.fromEntries(
      PANE_KEYS.map(({ pane }) => {
        type Figures = ReturnType<typeof paneFigures> & { ratio_to_bare_p95: number; ratio_to_ink_p95: number };
        const of = (pick: (f: Figures) => number) => median(perRound.map((r) => pick(r[pane] as Figures)));
        const figures = {
          p95_big_ms: of((f) => f.p95_big_ms),
          p95_empty_ms: of((f) => f.p95_empty_ms),
          ratio_p95: of((f) => f.ratio_p95),
          ratio_to_bare_p95: of((f) => f.ratio_to_bare_p95),
          ratio_to_ink_p95: of((f) => f.ratio_to_ink_p95),
          rounds_p95_big_ms: perRound.map((r) => r[pane]?.p95_big_ms),
          rounds_ratio_p95: perRound.map((r) => r[pane]?.ratio_p95),
        };
        return [
          pane,
          {
            ...figures,
            goals_met: figures.p95_big_ms < GOAL.p95Ms && figures.ratio_p95 <= GOAL.ratio,
            within_bare_goal: figures.ratio_to_bare_p95 <= GOAL.toBare,
          },
        ];
      }),
    );
    const rss = (run: Run) => run.peak_rss_mb;
    const result = {
      what: `TUI at ${COLS}x${LINES} over 30 days of every historical table, 1M more METAR rows and 10k open positions vs an empty cache: key to next frame p95 on every pane, keys every ${KEY_GAP_MS} ms (ratio over the keys that drew in both), the event loop's longest block while keys are pressed, bytes written a second idle, peak RSS of the monitor`,
      goals_set: GOAL,
      key_gap_ms: KEY_GAP_MS,
      terminal: `${COLS}x${LINES}`,
      rows: ROWS,
      positions: POSITIONS,
      rounds: ROUNDS,
      keys: KEYS.length,
      panes,
      // the floor: the same keys on a full-screen program with no framework (fixtures/bare-screen-process.mjs), p95
      // of every key a round; each pane's ratio_to_bare_p95 is its big-cache p95 over this, the median of the rounds
      bare_floor_p95_ms: bareP95,
      // the framework's floor: the same keys and screen drawn by a minimal Ink app (fixtures/ink-screen-process.mjs),
      // p95 of every key a round, and its ratio to the bare floor: what 2.5x of the bare floor asks of Ink itself
      ink_floor_p95_ms: inkP95,
      ink_floor_ratio_to_bare: inkP95.map((ink, round) => ratio(ink, bareP95[round] as number)),
      ink_floor_longest_block_ms: rounds.map((r) => r.ink.longest_block_ms),
      first_frame_ms: {
        big: median(rounds.map((r) => r.big.first_frame_ms)),
        empty: median(rounds.map((r) => r.empty.first_frame_ms)),
      },
      peak_rss_mb: { big: rounds.map((r) => rss(r.big)), empty: rounds.map((r) => rss(r.empty)) },
      longest_block_ms: {
        big: rounds.map((r) => r.big.longest_block_ms),
        empty: rounds.map((r) => r.empty.longest_block_ms),
        big_five_longest: rounds.map((r) => r.big.longest_blocks.map((b) => b.ms)),
        // what each of the big cache's five was made of: lateness, the wait for a core, the process's CPU meanwhile
        big_five_made_of: rounds.map((r) => r.big.longest_blocks),
        // the garbage collector's five longest pauses while keys were pressed: how much of a block is its
        gc_five_longest: {
          big: rounds.map((r) => r.big.longest_gc_ms),
          empty: rounds.map((r) => r.empty.longest_gc_ms),
        },
        late_whatever_the_cause: {
          big: rounds.map((r) => r.big.longest_late_ms),
          empty: rounds.map((r) => r.empty.longest_late_ms),
        },
      },
      idle_bytes_per_second: {
        big: idle.map((r) => r.big.bytes_per_second),
        empty: idle.map((r) => r.empty.bytes_per_second),
        whole_screen_clears: idle.reduce((n, r) => n + r.big.clears + r.empty.clears, 0),
      },
      peak_memory_mb: {
        big: rounds.map((r) => r.big.peak_memory_mb),
        empty: rounds.map((r) => r.empty.peak_memory_mb),
      },
      goals: {
        every_pane: Object.values(panes).every((p) => p.goals_met),
        every_pane_within_2_5x_bare: Object.values(panes).every((p) => p.within_bare_goal),
        no_block_over_16_ms: rounds.every((r) => r.big.longest_block_ms <= GOAL.blockMs),
        rss_under_150_mb: Math.max(...rounds.map((r) => rss(r.big))) < GOAL.rssMb,
        idle_under_2000_bytes_a_second: idle.every(
          (r) => r.big.bytes_per_second < GOAL.idleBytesPerSecond && r.empty.bytes_per_second < GOAL.idleBytesPerSecond,
        ),
      },
      per_round: perRound,
      capture: (rounds[rounds.length - 1] as { big: Run }).big.screen.split('\n'),
    };
    writeResult('tui-render', result);
    return result;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
