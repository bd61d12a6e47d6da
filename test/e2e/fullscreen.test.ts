import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openCache } from '../../src/cache/index.js';
import { damagePage } from '../cli/damaged-cache.js';
import { type ShellTui, startAfterShellLines } from './shell-terminal.js';

const ENTER = '\u001b[?1049h';
const LEAVE = '\u001b[?1049l';
const SHOW_CURSOR = '\u001b[?25h';
const BEFORE = ['$ ls', 'notes.txt  trades.csv', '$ svc-monitor --offline'];
/** What the shell's screen shows before the monitor starts: the three lines, the rest blank. */
const shellScreen = (rows: number) => [...BEFORE, ...Array(rows - BEFORE.length).fill('')].join('\n');

const root = mkdtempSync(join(tmpdir(), 'svc-e2e-fullscreen-'));
const env = { XDG_DATA_HOME: join(root, 'data'), XDG_CONFIG_HOME: join(root, 'config') };
const db = join(root, 'cache.db');
const running: ShellTui[] = [];
/** 30 alerts, `alert 01` the oldest: the Alerts pane lists them newest first, `alert 30` on top. */
const ALERTS = 30;

beforeAll(() => {
  const cache = openCache(db);
  for (let i = 1; i <= ALERTS; i++) {
    const n = String(i).padStart(2, '0');
    cache.alerts.add({
      severity: 'warning',
      kind: 'listener-down',
      message: `alert ${n}`,
      created_at: `2026-03-02T10:${n}:00Z`,
    });
  }
  cache.checkpoint();
  cache.close();
});
afterAll(() => {
  for (const tui of running) tui.kill();
  rmSync(root, { recursive: true, force: true });
});

function start(
  size = { cols: 120, rows: 30 },
  extraEnv: NodeJS.ProcessEnv = {},
  cache = db,
  args = ['monitor', '--offline', '--db', cache],
): ShellTui {
  const tui = startAfterShellLines(BEFORE, args, { ...env, ...extraEnv }, size);
  running.push(tui);
  return tui;
}

const firstFrame = (tui: ShellTui) =>
  tui.waitFor(() => tui.screen().includes('[1 Board]') && tui.screen().includes('OFFLINE'), 'the first frame');

/** Index in the raw output where `text` first appears, -1 if never. */
const at = (tui: ShellTui, text: string) => tui.output().indexOf(text);

/** The monitor entered the alternate screen before its first frame, left it after its last, the cursor shown. */
async function expectLeftCleanly(tui: ShellTui, rows: number) {
  await tui.waitFor(() => !tui.onAlternateScreen(), 'back on the shell screen');
  const out = tui.output();
  expect(at(tui, ENTER)).toBeGreaterThan(-1);
  expect(at(tui, ENTER)).toBeLessThan(at(tui, '[1 Board]'));
  expect(out.lastIndexOf(LEAVE)).toBeGreaterThan(out.lastIndexOf('[1 Board]'));
  expect(out.lastIndexOf(SHOW_CURSOR)).toBeGreaterThan(out.lastIndexOf('[1 Board]'));
  // the shell's screen as it was: no frame left on it
  expect(tui.screen()).toBe(shellScreen(rows));
}

describe('the monitor as a full-screen program, in a pseudo-terminal', () => {
  it('q: draws on the alternate screen and gives the shell its screen back exactly as it was', async () => {
    const tui = start();
    await tui.waitFor(() => tui.screen() === shellScreen(30) || tui.onAlternateScreen(), 'the shell lines');
    await firstFrame(tui);
    expect(tui.onAlternateScreen()).toBe(true);
    // none of the shell's lines is on the monitor's screen
    for (const l of BEFORE) expect(tui.screen()).not.toContain(l);
    tui.press('q');
    expect((await tui.exited).exitCode).toBe(0);
    await expectLeftCleanly(tui, 30);
  });

  it('Ctrl+C, SIGINT, SIGTERM and SIGHUP leave the same way', async () => {
    // SIGINT is what Ctrl+C becomes when it comes before Ink has put the terminal in raw mode
    for (const way of ['ctrl-c', 'SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
      const tui = start();
      await firstFrame(tui);
      if (way === 'ctrl-c') tui.press('\u0003');
      else tui.signal(way);
      // the board was up: the session closed as on q
      expect((await tui.exited).exitCode).toBe(0);
      await expectLeftCleanly(tui, 30);
    }
  });

  it('a signal before the first frame (a demo filling, a cache opening): the screen given back, exit 128 + its number', async () => {
    // planted in the real CLI from outside: the process signals itself just after it enters the alternate screen (the
    // turn after, as a key or a kill would come), before Ink or the cache has loaded; SIGINT is 2, SIGTERM 15, SIGHUP 1.
    // A signal is handled at a turn of the event loop. Node 20's module loader reads files asynchronously, so an
    // offline start's import of Ink is many turns; Node 24's reads them synchronously, and the import, the cache's
    // opening and the first frame are one turn (0.6 s here): the signal is handled with the board up and leaves like q
    // (exit 0, the test above). There the demo is the start that waits before its first frame (its world's fill).
    const args = Number(process.versions.node.split('.')[0]) >= 24 ? ['monitor', '--demo'] : undefined;
    for (const [signal, exitCode] of [
      ['SIGINT', 130],
      ['SIGTERM', 143],
      ['SIGHUP', 129],
    ] as const) {
      const planted = join(root, `${signal}-on-enter.mjs`);
      writeFileSync(
        planted,
        `const write = process.stdout.write.bind(process.stdout);
let sent = false;
process.stdout.write = (chunk, ...rest) => {
  const result = write(chunk, ...rest);
  if (!sent && String(chunk).includes('\u001b[?1049h')) { sent = true; setImmediate(() => process.kill(process.pid, '${signal}')); }
  return result;
};
`,
      );
      const tui = start(undefined, { NODE_OPTIONS: `--import ${planted}` }, db, args);
      expect((await tui.exited).exitCode).toBe(exitCode);
      await tui.waitFor(() => !tui.onAlternateScreen(), 'back on the shell screen');
      expect(at(tui, ENTER)).toBeGreaterThan(-1);
      expect(tui.output()).not.toContain('[1 Board]');
      expect(tui.output().lastIndexOf(LEAVE)).toBeGreaterThan(at(tui, ENTER));
      expect(tui.screen()).toBe(shellScreen(30));
    }
  });

  it('an uncaught error: the screen is given back before Node prints it, so the error stays readable', async () => {
    // planted in the real CLI from outside: once the first frame is written, an error thrown outside React
    const planted = join(root, 'throw-after-first-frame.mjs');
    writeFileSync(
      planted,
      `const write = process.stdout.write.bind(process.stdout);
process.stdout.write = (chunk, ...rest) => {
  if (String(chunk).includes('[1 Board]')) setTimeout(() => { throw new Error('planted failure 7Q'); }, 50);
  return write(chunk, ...rest);
};
`,
    );
    const tui = start(undefined, { NODE_OPTIONS: `--import ${planted}` });
    await firstFrame(tui);
    const { exitCode } = await tui.exited;
    expect(exitCode).toBe(1);
    await tui.waitFor(() => tui.screen().includes('planted failure 7Q'), 'the error on the shell screen');
    expect(tui.onAlternateScreen()).toBe(false);
    expect(tui.output().lastIndexOf(LEAVE)).toBeLessThan(tui.output().indexOf('planted failure 7Q'));
    // the shell's lines are still there, above the error
    expect(tui.screen().split('\n').slice(0, 3)).toEqual(BEFORE);
  });

  it('the failure boundary (a damaged cache): the one-line error lands on the shell screen, below its lines', async () => {
    const damaged = join(root, 'damaged.db');
    const cache = openCache(damaged);
    // a table with rows, so its page is read (and found damaged) when the first frame lists the cities
    cache.resources.upsertCities(
      ['alpha', 'bravo', 'charlie'].map((name, i) => ({
        city_id: name,
        city_name: name.toUpperCase(),
        country: 'DE',
        lat: 50 + i,
        lon: 8 + i,
        tz: 'Europe/Berlin',
        icao: `EDD${'ABC'[i]}`,
        station_name: `${name} station`,
      })),
    );
    cache.checkpoint();
    cache.close();
    damagePage(damaged, 'cities');
    const tui = start(undefined, {}, damaged);
    expect((await tui.exited).exitCode).toBe(2);
    await tui.waitFor(() => tui.screen().includes('is damaged'), 'the error line');
    expect(tui.onAlternateScreen()).toBe(false);
    expect(at(tui, ENTER)).toBeGreaterThan(-1);
    expect(tui.output().lastIndexOf(LEAVE)).toBeLessThan(tui.output().indexOf('is damaged'));
    expect(tui.screen().split('\n').slice(0, 3)).toEqual(BEFORE);
  });

  it('idle at 160x45: no whole-screen clear after the first frame, and under 2,000 bytes a clock second', async () => {
    const tui = start({ cols: 160, rows: 45 });
    await firstFrame(tui);
    const clock = () => tui.screen().match(/(\d\d):(\d\d):(\d\d)Z/);
    const seconds = () => {
      const m = clock();
      return m ? Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3]) : Number.NaN;
    };
    await tui.waitFor(() => !Number.isNaN(seconds()), 'the UTC clock');
    const from = { chunk: tui.chunks.length, second: seconds() };
    // 15 seconds of the monitor's own clock (it ticks each second), however loaded the machine is
    await tui.waitFor(() => seconds() - from.second >= 15, '15 clock seconds');
    const idle = tui.chunks
      .slice(from.chunk)
      .map((c) => c.data)
      .join('');
    const elapsed = seconds() - from.second;
    expect(idle).not.toContain('\u001b[2J');
    expect(idle).not.toContain('\u001b[3J');
    // something was drawn (the clock), and no more than the bound: 2,000 bytes a second of the clock
    expect(idle.length).toBeGreaterThan(0);
    expect(Buffer.byteLength(idle)).toBeLessThan(2_000 * elapsed);
    tui.press('q');
    await tui.exited;
  });

  it('keys written back to back each take effect: j j j j in one write moves four rows', async () => {
    const tui = start();
    await firstFrame(tui);
    tui.press('4');
    // newest first: alert 30 on top, selected
    await tui.waitFor(() => /^› .*alert 30/m.test(tui.screen()), 'the Alerts pane, alert 30 selected');
    tui.press('jjjj');
    // 30 - 4 = 26
    await tui.waitFor(() => /^› .*alert 26/m.test(tui.screen()), 'alert 26 selected');
    // Enter opens the detail; Esc closes it and j, written right after, moves on from the same row
    tui.press('\r');
    // (the list's header says "unacknowledged" too: wait for what only the detail shows)
    await tui.waitFor(() => tui.screen().includes('Esc back'), 'the detail of alert 26');
    tui.press('\u001b');
    tui.press('j');
    await tui.waitFor(() => /^› .*alert 25/m.test(tui.screen()), 'alert 25 selected');
    tui.press('q');
    await tui.exited;
  });

  it('the demo: its "starting" line is not left above the frame, and q gives the shell screen back', async () => {
    const data = join(root, 'demo-data');
    // the demo's world from the test template, so the first start does not fill 30 days
    cpSync(inject('templateDir'), join(data, 'svc-monitor', 'demo', 'server'), { recursive: true });
    const tui = start({ cols: 120, rows: 30 }, { XDG_DATA_HOME: data }, db, ['monitor', '--demo', '--no-notify']);
    await tui.waitFor(() => tui.screen().includes('[1 Board]') && tui.screen().includes(' DEMO '), 'the demo frame');
    // the frame starts on the first row: the tab bar there, nothing printed before it left on the screen
    expect(tui.screen().split('\n')[0]).toContain('[1 Board]');
    expect(tui.screen()).not.toContain('starting the demo world');
    expect(tui.output()).toContain('starting the demo world');
    tui.press('q');
    expect((await tui.exited).exitCode).toBe(0);
    await expectLeftCleanly(tui, 30);
  });

  it('a resize redraws the whole frame once at the new size, nothing left of the old one', async () => {
    const tui = start({ cols: 160, rows: 45 });
    await firstFrame(tui);
    for (const [cols, rows] of [
      [100, 30],
      [140, 40],
    ] as const) {
      tui.resize(cols, rows);
      await tui.waitFor(() => {
        const lines = tui.screen().split('\n');
        // the tab bar on the first row, the status bar's mode on one of the last two, once each
        return lines[0]?.includes('[1 Board]') === true && lines.slice(-3).some((l) => l.includes(' OFFLINE '));
      }, `the frame at ${cols}x${rows}`);
      const screen = tui.screen();
      expect(screen.split('\n').filter((l) => l.includes('1 Board')).length).toBe(1);
      expect(screen.split('\n').filter((l) => l.includes(' OFFLINE ')).length).toBe(1);
      expect(screen.split('\n').every((l) => l.length <= cols)).toBe(true);
    }
    tui.press('q');
    await tui.exited;
  });
});
