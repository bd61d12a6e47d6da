import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openCache } from '../../src/cache/index.js';
import { MonitorApp, renderMonitor } from '../../src/tui/render-monitor.js';
import { handCaches } from '../helpers/cache-builder.js';
import { monitorScene, now } from '../helpers/monitor-scene.js';
import { PATIENCE_MS } from '../helpers/patience.js';
import { fakeTerminal, KEYS, LIVE, lines, plain, renderTui, statusSource } from './fixtures.js';

const caches = handCaches('tui-shell-');
afterAll(() => caches.close());
/**
 * The hand-built scene of helpers/monitor-scene.ts at 15:00Z (10:00 in New York, a Saturday): two unacknowledged
 * kills and a rejected delivery; every stream synced 30 s ago but current (3 min, three polls behind) and fusion
 * locks (5 min, ten behind), forecasts failed since.
 */
const scene = () => monitorScene(caches.open());

const tabBar = (frame: string) => lines(frame)[0] ?? '';
const statusBar = (frame: string) => lines(frame).filter(Boolean).slice(-2).join('\n');

describe('tab bar and status bar', () => {
  it('show the pane, the unacknowledged alerts, mode and host, each stream’s age with its marker, the listener and both clocks', async () => {
    const cache = scene();
    const app = await renderTui(<MonitorApp cache={cache} source={statusSource()} now={now} initialCity="nyc" />);
    const frame = await app.until((f) => f.includes('hook 127.0.0.1'), 'the first frame');
    expect(tabBar(frame)).toContain('[1 Board]');
    // the scene's two kills and its rejected delivery
    expect(tabBar(frame)).toContain('4 Alerts (3)');
    expect(tabBar(frame)).toContain('!! KILL x2');
    const status = statusBar(frame);
    expect(status).toContain('LIVE');
    expect(status).toContain('svc.example:443');
    // synced half a minute ago; forecasts failed since (!), current is three polls behind (*), locks ten (!)
    expect(status).toMatch(/sync cty 30s cur 3m\* fc 30s! n24 30s yes 30s max 30s lock 5m!/);
    // the live history streams (bucket prices of both venues, METAR, the daily tables), in a group of their own
    expect(status).toContain('hist mtr 30s mka 30s mkb 30s day 30s');
    expect(status).toContain('hook 127.0.0.1:8788 ok 12 dup 3 rej 1');
    expect(status).toContain('15:00:00Z');
    expect(status).toContain('nyc Sat 10:00');
    app.unmount();
  });

  it('follow the listener and the connection as the CLI reports them, keeping the cached rows on screen', async () => {
    const cache = scene();
    const source = statusSource();
    const app = await renderTui(<MonitorApp cache={cache} source={source} now={now} />);
    // the board's rows: one a city of the scene
    const cityRows = (frame: string) => lines(frame).filter((l) => /^[› ] (London|Paris|New York City) /.test(l));
    expect(cityRows(await app.until((f) => f.includes('Board ·'), 'the board'))).toHaveLength(3);
    source.set({
      ...LIVE,
      connection: { state: 'unreachable', message: 'connect ECONNREFUSED 10.0.0.5:443' },
      listener: { ...LIVE.listener, state: 'down', accepted: 40 },
    });
    const frame = await app.until((f) => f.includes('UNREACHABLE'), 'the connection problem');
    expect(statusBar(frame)).toContain('!! SERVICE UNREACHABLE: connect ECONNREFUSED 10.0.0.5:443');
    expect(statusBar(frame)).toContain('!! hook DOWN 127.0.0.1:8788 ok 40');
    expect(cityRows(frame)).toHaveLength(3);
    source.set({ ...LIVE, connection: { state: 'auth-rejected', message: 'HTTP 401' } });
    expect(statusBar(await app.until((f) => f.includes('KEY REJECTED')))).toContain('!! KEY REJECTED: HTTP 401');
    app.unmount();
  });

  it('say DEMO in a banner in demo mode, and OFFLINE without a network', async () => {
    const cache = scene();
    const source = statusSource({ ...LIVE, mode: 'demo', host: '127.0.0.1:40123' });
    const app = await renderTui(<MonitorApp cache={cache} source={source} now={now} />);
    const demo = await app.until((f) => f.includes('hook 127.0.0.1'), 'the first frame');
    expect(lines(demo)[1]).toContain(
      'DEMO  simulated service at 127.0.0.1:40123: prices, weather and trades are not real',
    );
    expect(statusBar(demo)).toContain('DEMO');
    // at 80 columns the whole sentence (84) does not fit: the host goes (the status bar names it), "not real" stays
    await app.resize(80, 24);
    const narrow = await app.until((f) => !f.includes('service at'), 'the banner at 80 columns');
    expect(lines(narrow)[1]).toBe(' DEMO  simulated service: prices, weather and trades are not real');
    expect(statusBar(narrow)).toContain('127.0.0.1:40123');
    await app.resize(120, 40);
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
    const cache = scene();
    const app = await renderTui(<MonitorApp cache={cache} source={statusSource()} now={now} />);
    const tabTo = async (key: string, pane: string) => {
      await app.press(key);
      return app.until((f) => tabBar(f).includes(pane), pane);
    };
    expect(await tabTo('3', '[3 Positions]')).toContain('LIVE DAYS (today and ahead)');
    await tabTo('5', '[5 Forecasts]');
    await tabTo(KEYS.tab, '[6 History]');
    await tabTo(KEYS.tab, '[1 Board]');
    await tabTo(KEYS.shiftTab, '[6 History]');
    expect(await tabTo('4', '[4 Alerts')).toContain('3 unacknowledged');
    app.unmount();
  });

  it('? lists every key; while it is open pane and switching keys do nothing; Esc closes it', async () => {
    const cache = scene();
    const app = await renderTui(<MonitorApp cache={cache} source={statusSource()} now={now} />, {
      columns: 120,
      rows: 60,
    });
    await app.pane('2');
    await app.press('?');
    const help = await app.until((f) => f.includes('Tab / Shift-Tab'), 'the help');
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
    const cache = scene();
    let refreshes = 0;
    const app = await renderTui(
      <MonitorApp cache={cache} source={statusSource()} now={now} onRefresh={() => refreshes++} />,
    );
    await app.press('r');
    await app.until((f) => statusBar(f).includes('refresh requested'), 'the refresh on the status bar');
    expect(refreshes).toBe(1);
    app.unmount();
  });

  it('q ends renderMonitor: waitUntilExit resolves', async () => {
    const cache = scene();
    const { stdin, stdout } = fakeTerminal();
    // vitest replaces the console, so Ink cannot patch it here
    const monitor = renderMonitor({ cache, source: statusSource(), now, stdin, stdout, patchConsole: false });
    let exited = false;
    const done = monitor.waitUntilExit().then(() => {
      exited = true;
    });
    // its first frame drawn (however long a loaded machine takes), and it still runs
    for (let i = 0; !plain(stdout.written.join('')).includes('Signals'); i++) {
      if (i > PATIENCE_MS / 10) throw new Error(`no frame: ${plain(stdout.written.join(''))}`);
      await new Promise((r) => setTimeout(r, 10));
    }
    expect(exited).toBe(false);
    expect(plain(stdout.written.join(''))).toContain('Signals');
    stdin.write('q');
    await done;
    expect(exited).toBe(true);
  });
});

describe('an empty cache (first start, nothing synced yet)', () => {
  it('every pane says what it is waiting for, and nothing breaks', async () => {
    const cache = openCache(join(caches.root, 'empty', 'cache.db'));
    const app = await renderTui(<MonitorApp cache={cache} source={statusSource()} now={now} />);
    const says = async (key: string, text: string) => {
      await app.press(key);
      return app.until((f) => f.includes(text), text);
    };
    await app.until((f) => f.includes('No cities cached yet: the first sync brings them.'), 'the board');
    expect(statusBar(await says('2', 'No signals cached yet'))).toMatch(/sync cty -\? cur -\?/);
    await says('3', 'TOTAL  0 open');
    await says('4', '0 unacknowledged');
    await says('5', 'No cities cached yet');
    await says('6', 'No rows cached here');
    await says('s', 'no strategy records match');
    await says('c', 'No cities cached yet: the first sync brings them.');
    await app.press(KEYS.enter, KEYS.escape);
    app.unmount();
    cache.close();
  });
});

describe('terminal size', () => {
  it('fits the frame inside the terminal at any size, compacts below 80x24, and says when nothing fits', async () => {
    const cache = scene();
    const app = await renderTui(<MonitorApp cache={cache} source={statusSource()} now={now} />);
    for (const pane of ['1', '2'])
      for (const [columns, rows] of [
        [120, 40],
        [100, 30],
        [80, 24],
        [70, 20],
        [50, 12],
      ] as const) {
        await app.pane(pane);
        await app.resize(columns, rows);
        // the frame drawn for this size: its pane chosen, and inside the terminal (a frame still too big fails)
        const frame = await app.until(
          (f) =>
            // its tab bracketed: `[1 Board]`, `[1 Boa]`, or `[1]` where the kill count needs the room
            new RegExp(`\\[${pane}[ \\]]`).test(tabBar(f)) &&
            lines(f).length < rows &&
            lines(f).every((l) => l.length <= columns),
          `pane ${pane} inside ${columns}x${rows}`,
        );
        expect(lines(frame).length, `${pane} ${columns}x${rows}`).toBeLessThan(rows);
        for (const l of lines(frame)) expect(l.length, `${columns}x${rows}: ${l}`).toBeLessThanOrEqual(columns);
      }
    await app.resize(70, 20);
    const narrow = await app.until((f) => tabBar(f).includes('[2 Sig]'), 'the short tab names');
    expect(narrow).not.toContain('local');
    await app.press('5');
    // below two columns the forecast sections stack: the buckets first, the desk further down
    const stacked = lines(await app.until((f) => f.includes('MARKET BUCKETS'), 'Forecasts at 70x20'));
    expect(stacked.some((l) => l.includes('│'))).toBe(false);
    await app.resize(30, 8);
    await app.until(
      (f) => f.replace(/\s+/g, ' ').includes('Terminal too small (30x8); need 40x10. Enlarge it, or q to quit.'),
      'the too-small notice',
    );
    await app.resize(120, 40);
    const wide = await app.until((f) => /^MARKET BUCKETS.*│ DAY AGAINST/m.test(f), 'Forecasts in two columns again');
    expect(tabBar(wide)).toContain('[5 Forecasts]');
    app.unmount();
  });
});
