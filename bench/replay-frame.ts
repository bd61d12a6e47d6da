import { render } from 'ink-testing-library';
import { createElement } from 'react';
import type { Cache, ChangeListener } from '../src/cache/index.js';
import { MonitorApp } from '../src/tui/render-monitor.js';
import type { MonitorSource, MonitorStatus } from '../src/tui/types.js';

/** The terminal the frames are drawn for: tui-render's. */
const SIZE = { columns: 160, rows: 45 };
const OFFLINE: MonitorStatus = {
  mode: 'offline',
  host: null,
  connection: { state: 'offline' },
  listener: { state: 'off', accepted: 0, duplicates: 0, rejected: 0 },
};
const source: MonitorSource = { getStatus: () => OFFLINE, subscribe: () => () => {} };
const RIGHT = '\u001b[C';
const settle = () => new Promise((resolve) => setImmediate(resolve));

/**
 * A monitor drawn by Ink into memory (ink-testing-library: every render written at once, no frame rate), its terminal
 * 160x45. `change` writes nothing: it tells the app's change hub, as a commit would, that the snapshots changed.
 */
function mount(cache: Cache, props: Record<string, unknown>) {
  let listener: ChangeListener | null = null;
  // the cache as the app sees it, but for its change events, which the bench sends itself
  const watched = new Proxy(cache, {
    get(target, key) {
      if (key === 'onChange')
        return (l: ChangeListener) => {
          listener = l;
          return () => {
            listener = null;
          };
        };
      const value = Reflect.get(target, key, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  const app = render(
    createElement(MonitorApp, { cache: watched, source, coalesceMs: 0, tickMs: 3_600_000, noColor: true, ...props }),
  );
  for (const [name, value] of Object.entries(SIZE))
    Object.defineProperty(app.stdout, name, { value, configurable: true });
  app.stdout.emit('resize');
  /** Runs `trigger`, then waits until a frame unlike the one before is written: the ms it took. */
  const timed = async (trigger: () => void): Promise<number> => {
    const before = app.lastFrame();
    const started = performance.now();
    trigger();
    while (app.lastFrame() === before) await settle();
    return performance.now() - started;
  };
  return {
    app,
    timed,
    change: () => listener?.({ table: 'historical/mkta_buckets_history', ids: [] }),
  };
}

export interface FrameSteps {
  step_frame_ms: number[];
  live_frame_ms: number[];
  /** The replay's banner after the last step (a check that the steps were taken). */
  banner: string;
}

/**
 * One step of time travel with its frame against the live board's, in the same run: `steps` times, alternately, (a)
 * `→` on a monitor started with `--at` at `startMs` (the board's reads as of the next half hour, its day pinned, and
 * the frame: the banner, the tab bar's alert counts as of then, every row), and (b) the live board re-read a minute
 * later than the last time (its clock moved on and a cache change told, as a sync's commit does: every row's local
 * time changes, so every row is worked out again and drawn). Each is timed from the key or the change to the frame.
 */
export async function replayFrameSteps(
  cache: Cache,
  { startMs, liveMs, city, steps }: { startMs: number; liveMs: number; city: string; steps: number },
): Promise<FrameSteps> {
  let clock = liveMs;
  const replay = mount(cache, { now: () => new Date(liveMs), replayAt: startMs, initialCity: city });
  const live = mount(cache, { now: () => new Date(clock), initialCity: city });
  try {
    // the first frames of both, and a few steps to warm (statements prepared, pages in the page cache)
    while (!replay.app.lastFrame()?.includes('REPLAY') || !live.app.lastFrame()?.includes('Board')) await settle();
    for (let i = 0; i < 4; i++) {
      await replay.timed(() => replay.app.stdin.write(RIGHT));
      await live.timed(() => {
        clock += 60_000;
        live.change();
      });
    }
    const stepMs: number[] = [];
    const liveFrameMs: number[] = [];
    for (let i = 0; i < steps; i++) {
      stepMs.push(await replay.timed(() => replay.app.stdin.write(RIGHT)));
      liveFrameMs.push(
        await live.timed(() => {
          clock += 60_000;
          live.change();
        }),
      );
    }
    const banner = (replay.app.lastFrame() ?? '').split('\n')[0] ?? '';
    return { step_frame_ms: stepMs, live_frame_ms: liveFrameMs, banner: banner.trim() };
  } finally {
    replay.app.unmount();
    live.app.unmount();
  }
}
