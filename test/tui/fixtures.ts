import { EventEmitter } from 'node:events';
import { render } from 'ink-testing-library';
import { createElement, Fragment, type ReactElement } from 'react';
import type { MonitorSource, MonitorStatus } from '../../src/tui/render-monitor.js';
import { PATIENCE_MS } from '../helpers/patience.js';

export const LIVE: MonitorStatus = {
  mode: 'live',
  host: 'svc.example:443',
  connection: { state: 'ok' },
  listener: { state: 'listening', url: 'http://127.0.0.1:8788/', accepted: 12, duplicates: 3, rejected: 1 },
};

/** A MonitorSource whose status the test changes, the way the CLI's would. */
export function statusSource(initial: MonitorStatus = LIVE): MonitorSource & { set(next: MonitorStatus): void } {
  let status = initial;
  const listeners = new Set<() => void>();
  return {
    getStatus: () => status,
    subscribe(onChange) {
      listeners.add(onChange);
      return () => listeners.delete(onChange);
    },
    set(next) {
      status = next;
      for (const l of listeners) l();
    },
  };
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI escape sequences start with ESC
const ANSI = /\u001b\[[0-9;]*m/g;
export const plain = (frame: string | undefined) => (frame ?? '').replace(ANSI, '');

export const KEYS = {
  down: '\u001b[B',
  up: '\u001b[A',
  pageDown: '\u001b[6~',
  pageUp: '\u001b[5~',
  enter: '\r',
  escape: '\u001b',
  tab: '\t',
  shiftTab: '\u001b[Z',
  left: '\u001b[D',
  right: '\u001b[C',
  backspace: '\u007f',
} as const;

const settle = (ms = 30) => new Promise((r) => setTimeout(r, ms));

/** ink-testing-library plus what these tests do to it: keys, resizing, waiting for a frame. */
export async function renderTui(
  tree: ReactElement,
  size: { columns: number; rows: number } = { columns: 120, rows: 40 },
) {
  // the size before the tree's first frame: ink-testing-library's stdout says 100 columns until resized, and a pane
  // warmed in the background meanwhile (components/prewarm.tsx) was laid out at that width on a loaded machine
  const app = render(createElement(Fragment));
  resize(app.stdout, size.columns, size.rows);
  app.rerender(tree);
  await settle();
  /**
   * Waits until the frame satisfies `check` (a coalesced re-query or a render away), or fails with the frame after
   * PATIENCE_MS (5 s was too short for a loaded machine).
   */
  const until = async (check: (frame: string) => boolean, what = 'the expected frame'): Promise<string> => {
    // counted in turns, not read off Date: a test may fake the clock
    for (let i = 0; i < PATIENCE_MS / 10; i++) {
      const f = plain(app.lastFrame());
      if (check(f)) return f;
      await settle(10);
    }
    throw new Error(`timed out waiting for ${what}; last frame:\n${plain(app.lastFrame())}`);
  };
  return {
    ...app,
    frame: () => plain(app.lastFrame()),
    until,
    /**
     * Presses a pane's number key and waits until the tab bar shows that pane chosen: a frame read right after a
     * key can still be the one before it on a busy machine.
     */
    async pane(key: string): Promise<string> {
      app.stdin.write(key);
      // `[1 Board]`, `[1 Boa]`, or `[1]` on a narrow tab bar with kills to count
      const chosen = new RegExp(`\\[${key}[ \\]]`);
      return until((f) => chosen.test(f.split('\n')[0] ?? ''), `pane ${key} on the tab bar`);
    },
    async press(...keys: string[]) {
      for (const k of keys) {
        app.stdin.write(k);
        await settle();
      }
    },
    async resize(columns: number, rows: number) {
      resize(app.stdout, columns, rows);
      await settle();
    },
  };
}

function resize(stdout: EventEmitter, columns: number, rows: number): void {
  Object.defineProperty(stdout, 'columns', { value: columns, configurable: true });
  Object.defineProperty(stdout, 'rows', { value: rows, configurable: true });
  stdout.emit('resize');
}

/**
 * Until the monitor reads nothing more on its own: no query for 20 turns of the event loop in a row. Once the first
 * frame is drawn the panes not shown yet are read in the background, a slice a turn (cache/sliced-read.ts), each
 * slice a query or a step that ends the read, so a read under way shows within a turn or two. A test that counts a
 * key's reads waits for this first.
 */
export async function readsSettled(cache: { readStats: { queries: number } }): Promise<void> {
  let quiet = 0;
  let seen = cache.readStats.queries;
  for (let turn = 0; quiet < 20; turn++) {
    if (turn > 20_000) throw new Error('the monitor never stopped reading');
    await new Promise((r) => setImmediate(r));
    const now = cache.readStats.queries;
    quiet = now === seen ? quiet + 1 : 0;
    seen = now;
  }
}

/** Lines of a frame, without trailing blanks. */
export const lines = (frame: string) => frame.split('\n').map((l) => l.trimEnd());

/** Streams enough like a terminal for Ink's `render`: what the CLI passes in. */
export function fakeTerminal() {
  const stdout = Object.assign(new EventEmitter(), {
    columns: 100,
    rows: 30,
    isTTY: true,
    written: [] as string[],
    write(chunk: string) {
      stdout.written.push(chunk);
      return true;
    },
  });
  const stdin = Object.assign(new EventEmitter(), {
    isTTY: true,
    data: null as string | null,
    write(data: string) {
      stdin.data = data;
      stdin.emit('readable');
      stdin.emit('data', data);
    },
    read() {
      const d = stdin.data;
      stdin.data = null;
      return d;
    },
    setEncoding() {},
    setRawMode() {},
    resume() {},
    pause() {},
    ref() {},
    unref() {},
  });
  return {
    stdout: stdout as unknown as NodeJS.WriteStream & { written: string[] },
    stdin: stdin as unknown as NodeJS.ReadStream & { write(d: string): void },
  };
}
