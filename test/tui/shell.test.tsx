import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCache } from '../../src/cache/index.js';
import { MonitorApp, renderMonitor } from '../../src/tui/render-monitor.js';
import {
  type Filled,
  fakeTerminal,
  fillCache,
  KEYS,
  LIVE,
  lines,
  now,
  plain,
  renderTui,
  statusSource,
} from './fixtures.js';

let filled: Filled;
beforeAll(async () => {
  filled = await fillCache();
});
afterAll(() => filled?.close());

const tabBar = (frame: string) => lines(frame)[0] ?? '';
const statusBar = (frame: string) => lines(frame).filter(Boolean).slice(-2).join('\n');

describe('tab bar and status bar', () => {
  it('show the pane, the unacknowledged alerts, mode and host, each stream’s age with its marker, the listener and both clocks', async () => {
    const cache = filled.copy();
    const app = await renderTui(<MonitorApp cache={cache} source={statusSource()} now={now} initialCity="nyc" />);
    const frame = app.frame();
    expect(tabBar(frame)).toContain('[1 Board]');
    // two kills of the 30-day world and the fixture's rejected delivery
    expect(tabBar(frame)).toContain('4 Alerts (3)');
    expect(tabBar(frame)).toContain('!! KILL x2');
    const status = statusBar(frame);
    expect(status).toContain('LIVE');
    expect(status).toContain('svc.example:443');
    // sync half a minute ago; forecasts failed since (!), current is three polls behind (*), locks ten (!)
    expect(status).toMatch(/sync cty 30s cur 3m\* fc 30s! n24 30s yes 30s max 30s lock 5m!/);
    // the live history streams (bucket prices of both venues, METAR, the daily tables), in a group of their own
    expect(status).toContain('hist mka 30s mkb 30s mtr 30s day 30s');
    expect(status).toContain('hook 127.0.0.1:8788 ok 12 dup 3 rej 1');
    expect(status).toContain('15:00:00Z');
    expect(status).toContain('nyc Sat 10:00');
    app.unmount();
  });

  it('follow the listener and the connection as the CLI reports them, keeping the cached rows on screen', async () => {
    const cache = filled.copy();
    const source = statusSource();
    const app = await renderTui(<MonitorApp cache={cache} source={source} now={now} />);
    const rowsBefore = lines(app.frame()).filter((l) => /\d\d-\d\d \d\d:\d\dZ/.test(l)).length;
    source.set({
      ...LIVE,
      connection: { state: 'unreachable', message: 'connect ECONNREFUSED 10.0.0.5:443' },
      listener: { ...LIVE.listener, state: 'down', accepted: 40 },
    });
    const frame = await app.until((f) => f.includes('UNREACHABLE'), 'the connection problem');
    expect(statusBar(frame)).toContain('!! SERVICE UNREACHABLE: connect ECONNREFUSED 10.0.0.5:443');
    expect(statusBar(frame)).toContain('!! hook DOWN 127.0.0.1:8788 ok 40');
    expect(lines(frame).filter((l) => /\d\d-\d\d \d\d:\d\dZ/.test(l)).length).toBe(rowsBefore);
    source.set({ ...LIVE, connection: { state: 'auth-rejected', message: 'HTTP 401' } });
    expect(statusBar(await app.until((f) => f.includes('KEY REJECTED')))).toContain('!! KEY REJECTED: HTTP 401');
    app.unmount();
  });

  it('say DEMO in a banner in demo mode, and OFFLINE without a network', async () => {
    const cache = filled.copy();
    const source = statusSource({ ...LIVE, mode: 'demo', host: '127.0.0.1:40123' });
    const app = await renderTui(<MonitorApp cache={cache} source={source} now={now} />);
    expect(lines(app.frame())[1]).toContain(
      'DEMO  simulated service at 127.0.0.1:40123: prices, weather and trades are not real',
    );
    expect(statusBar(app.frame())).toContain('DEMO');
    source.set({
      ...LIVE,
      mode: 'offline',
      host: null,
      connection: { state: 'offline' },
      listener: { ...LIVE.listener, state: 'off' },
    });
    const frame = await app.until((f) => f.includes('OFFLINE'));
    expect(frame).not.toContain('simulated service');
    expect(statusBar(frame)).toContain('hook off');
    app.unmount();
  });
});

describe('keys', () => {
  it('1..6, Tab and Shift-Tab switch panes', async () => {
    const cache = filled.copy();
    const app = await renderTui(<MonitorApp cache={cache} source={statusSource()} now={now} />);
    await app.press('3');
    expect(tabBar(app.frame())).toContain('[3 Positions]');
    expect(app.frame()).toContain('STRATEGY RECORDS (open)');
    await app.press('5');
    expect(tabBar(app.frame())).toContain('[5 Forecasts]');
    await app.press(KEYS.tab);
    expect(tabBar(app.frame())).toContain('[6 History]');
    await app.press(KEYS.tab);
    expect(tabBar(app.frame())).toContain('[1 Board]');
    await app.press(KEYS.shiftTab);
    expect(tabBar(app.frame())).toContain('[6 History]');
    await app.press('4');
    expect(app.frame()).toContain('3 unacknowledged');
    app.unmount();
  });

  it('? lists every key; while it is open pane and switching keys do nothing; Esc closes it', async () => {
    const cache = filled.copy();
    const app = await renderTui(<MonitorApp cache={cache} source={statusSource()} now={now} />, {
      columns: 120,
      rows: 60,
    });
    await app.press('2', '?');
    const help = app.frame();
    for (const key of [
      'Tab / Shift-Tab',
      '1 2 3 4 5 6',
      'c ',
      'u ',
      'r ',
      'q ',
      '↑ ↓  j k',
      'PgUp PgDn',
      'Enter',
      'Esc',
      'a ',
      '/ ',
      's ',
      '!! KILL',
    ]) {
      expect(help, key).toContain(key);
    }
    await app.press('4', 'j', KEYS.tab, 'c', 'u');
    expect(app.frame()).toBe(help);
    expect(tabBar(app.frame())).toContain('[2 Signals]');
    await app.press(KEYS.escape);
    const back = await app.until((f) => !f.includes('Tab / Shift-Tab'));
    expect(tabBar(back)).toContain('[2 Signals]');
    expect(back).toContain('UTC');
    app.unmount();
  });

  it('r asks the CLI for a refresh and says so', async () => {
    const cache = filled.copy();
    let refreshes = 0;
    const app = await renderTui(
      <MonitorApp cache={cache} source={statusSource()} now={now} onRefresh={() => refreshes++} />,
    );
    await app.press('r');
    expect(refreshes).toBe(1);
    expect(statusBar(app.frame())).toContain('refresh requested');
    app.unmount();
  });

  it('q ends renderMonitor: waitUntilExit resolves', async () => {
    const cache = filled.copy();
    const { stdin, stdout } = fakeTerminal();
    // vitest replaces the console, so Ink cannot patch it here
    const monitor = renderMonitor({ cache, source: statusSource(), now, stdin, stdout, patchConsole: false });
    let exited = false;
    const done = monitor.waitUntilExit().then(() => {
      exited = true;
    });
    await new Promise((r) => setTimeout(r, 50));
    expect(exited).toBe(false);
    expect(plain(stdout.written.join(''))).toContain('Signals');
    stdin.write('q');
    await done;
    expect(exited).toBe(true);
  });
});

describe('an empty cache (first start, nothing synced yet)', () => {
  it('every pane says what it is waiting for, and nothing breaks', async () => {
    const cache = openCache(join(filled.root, 'empty', 'cache.db'));
    const app = await renderTui(<MonitorApp cache={cache} source={statusSource()} now={now} />);
    expect(app.frame()).toContain('No cities cached yet: the first sync brings them.');
    await app.press('2');
    expect(app.frame()).toContain('No signals cached yet');
    expect(statusBar(app.frame())).toMatch(/sync cty -\? cur -\?/);
    await app.press('3');
    expect(app.frame()).toContain('none open');
    await app.press('4');
    expect(app.frame()).toContain('0 unacknowledged');
    await app.press('5');
    expect(app.frame()).toContain('No cities cached yet');
    await app.press('6');
    expect(app.frame()).toContain('No rows cached here');
    await app.press('s');
    expect(app.frame()).toContain('no strategy records match');
    await app.press('c');
    expect(app.frame()).toContain('No cities cached yet: the first sync brings them.');
    await app.press(KEYS.enter, KEYS.escape);
    app.unmount();
    cache.close();
  });
});

describe('terminal size', () => {
  it('fits the frame inside the terminal at any size, compacts below 80x24, and says when nothing fits', async () => {
    const cache = filled.copy();
    const app = await renderTui(<MonitorApp cache={cache} source={statusSource()} now={now} />);
    for (const pane of ['1', '2'])
      for (const [columns, rows] of [
        [120, 40],
        [100, 30],
        [80, 24],
        [70, 20],
        [50, 12],
      ] as const) {
        await app.press(pane);
        await app.resize(columns, rows);
        const frame = app.frame();
        expect(lines(frame).length, `${pane} ${columns}x${rows}`).toBeLessThan(rows);
        for (const l of lines(frame)) expect(l.length, `${columns}x${rows}: ${l}`).toBeLessThanOrEqual(columns);
      }
    await app.resize(70, 20);
    expect(tabBar(app.frame())).toContain('[2 Sig]');
    expect(app.frame()).not.toContain('local');
    await app.press('5');
    // below two columns the forecast sections stack: the primary first, the buckets further down
    const stacked = lines(app.frame());
    expect(stacked.some((l) => l.includes('│'))).toBe(false);
    await app.resize(30, 8);
    expect(app.frame().replace(/\s+/g, ' ')).toContain(
      'Terminal too small (30x8); need 40x10. Enlarge it, or q to quit.',
    );
    await app.resize(120, 40);
    expect(tabBar(app.frame())).toContain('[5 Forecasts]');
    expect(app.frame()).toContain('│ MARKET BUCKETS');
    app.unmount();
  });
});
