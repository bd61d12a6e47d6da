import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { openCache } from '../../src/cache/index.js';
import { HandCache } from '../helpers/cache-builder.js';
import { fakeNotifySend, freePort, waitUntil } from '../helpers/listener-harness.js';
import { monitorScene } from '../helpers/monitor-scene.js';
import { insuranceEvent, leg, signed } from '../helpers/webhook-events.js';
import { KEY, startTui, type TuiProcess } from './terminal.js';

/** The demo's cities, as the board names them: the stations the world is built on (assets/cities.json). */
const DEMO_CITIES = (
  JSON.parse(readFileSync(new URL('../../assets/cities.json', import.meta.url), 'utf8')) as {
    cities: { city_name: string }[];
  }
).cities.map((c) => c.city_name);

const root = mkdtempSync(join(tmpdir(), 'svc-e2e-'));
const running: TuiProcess[] = [];
afterAll(() => {
  for (const tui of running) tui.kill();
  rmSync(root, { recursive: true, force: true });
});

describe('the monitor in a pseudo-terminal', () => {
  it('opens the demo on the in-process service: panes, keys, help, a kill reaching Alerts and the desktop, q exits 0', async () => {
    const dir = join(root, 'demo');
    const env = { XDG_DATA_HOME: join(dir, 'data'), XDG_CONFIG_HOME: join(dir, 'config') };
    // the demo's world from the test template, so the first start does not fill 30 days
    cpSync(inject('templateDir'), join(env.XDG_DATA_HOME, 'svc-monitor', 'demo', 'server'), { recursive: true });
    const notify = fakeNotifySend(dir);
    const port = await freePort();
    const secret = 'e2e-webhook-secret';
    const tui = startTui(['--listen', String(port)], {
      ...env,
      PATH: `${notify.bin}:${process.env.PATH}`,
      SVC_WEBHOOK_SECRET: secret,
      SVC_API_KEY: '',
    });
    running.push(tui);

    await tui.waitFor('DEMO');
    await tui.waitFor('[1 Board]');
    // the landing pane: a row for each of the demo's 13 cities, each priced within 60 s: its forecast, and its best
    // edge or `no edge` (DESIGN 4: nothing positive at an offer)
    const board = await waitUntil(
      'the board with 13 cities and their edges',
      () => {
        const rows = tui.screen().split('\n');
        const priced = DEMO_CITIES.filter((name) =>
          rows.some(
            (r) =>
              r.includes(name) &&
              /\d±\d/.test(r) &&
              (/[+-]\d+\.\d (YES|NO) \S+°[FC] \d\.\d\d mkt[ab]/.test(r) || r.includes(' no edge ')),
          ),
        );
        return priced.length === DEMO_CITIES.length ? tui.screen() : undefined;
      },
      60_000,
    );
    expect(board).toContain(`Board · ${DEMO_CITIES.length} cities · by local time`);
    // Enter opens the city under the cursor: its Forecasts, with payoff by outcome below the buckets
    tui.press(KEY.enter);
    await tui.waitFor('[5 Forecasts]');
    await tui.waitFor('PAYOFF BY OUTCOME');

    tui.press('2');
    await tui.waitFor('[2 Signals]');
    // the sync's first pass fills the feed from the service
    await tui.waitFor(/LOCK|SVC-MAX|NO24|YESCORE/);
    await tui.waitFor(`hook 127.0.0.1:${port}`);

    tui.press('3');
    await tui.waitFor('[3 Positions]');
    tui.press('5');
    // Forecasts opens on the buckets (the desk's PRIMARY is under them and the payoff)
    await tui.waitFor('MARKET BUCKETS');
    tui.press('6');
    await tui.waitFor('[6 History]');
    tui.press(KEY.tab);
    await tui.waitFor('[1 Board]');

    tui.press('?');
    await tui.waitFor('acknowledge the selected alert');
    // the overlay takes keys before the panes: 4 does not switch under it, so once Esc has closed the overlay
    // the pane is still the Board (had 4 gone through, it would be Alerts)
    tui.press('4');
    tui.press(KEY.escape);
    await tui.waitForGone('acknowledge the selected alert');
    expect(tui.screen()).toContain('[1 Board]');
    expect(tui.screen()).not.toContain('[4 Alerts]');

    const kill = signed(
      secret,
      insuranceEvent('insurance.pick.killed', {
        legs: [leg('A', 50), leg('B', 52)],
        reason: 'METAR high 55°F is above every leg',
      }),
    );
    const response = await fetch(`http://127.0.0.1:${port}/`, {
      method: 'POST',
      body: kill.body,
      headers: kill.headers,
    });
    expect(response.status).toBe(200);
    tui.press('4');
    // the kill is listed, and counted on the tab bar and in the pane's header alike: with any the demo's own world
    // sent meanwhile (it kills picks too), so the count is read, not assumed; trader alerts (edges and the like) are
    // counted on the tab's number of all unacknowledged alerts, not among the kills
    // the pane mounts on a fresh read while the tab bar redraws on the cache's next coalesced release: the two agree
    // within one window, so the test waits for the state where both show it
    const alerts = await waitUntil('the kill listed, and counted on the tab bar', () => {
      const screen = tui.screen();
      return /!! KILL .*KILL New York City 2026-11-21/.test(screen) && /\[4 Alerts \(\d+\)\]/.test(screen)
        ? screen
        : undefined;
    });
    expect(Number(alerts.match(/\[4 Alerts \((\d+)\)\]/)?.[1])).toBeGreaterThanOrEqual(1);
    // each kill pops up once: the tab bar, the pane's header and the desktop count the same kills, ours among them
    const kills = await waitUntil('the tab bar, the pane and the desktop agreeing on the kills', () => {
      const screen = tui.screen();
      const tab = Number(screen.match(/!! KILL x(\d+)/)?.[1]);
      const pane = Number(screen.match(/!! (\d+) KILLS? to act on/)?.[1]);
      const popped = notify.calls().filter((c) => c[0]?.startsWith('Kill · ')).length;
      return tab > 0 && tab === pane && tab === popped ? tab : undefined;
    });
    expect(kills).toBeGreaterThanOrEqual(1);
    // node-notifier ran the fake notify-send with the title and the action first; any other call is the demo
    // world's own or a trader alert's, titled by its kind, or the rest of a burst of trader alerts in one
    const call = await waitUntil('notify-send called for the kill', () =>
      notify.calls().find((c) => c[0] === 'Kill · New York City'),
    );
    for (const other of notify.calls().filter((c) => c !== call))
      expect(other[0]).toMatch(
        /^((Kill|Edge [+-]\d+\.\d pts|Edge|Dying bucket|Breakthrough) · [A-Z]|svc-monitor: \d+ more alerts$)/,
      );
    // what and where in the title, by the city's name from the cached cities; what to do first in the body
    expect(call?.slice(0, 2)).toEqual([
      'Kill · New York City',
      'SELL AT MARKET: legs A 50-51°F, B 52-53°F. METAR high 55°F is above every leg (2026-11-21)',
    ]);
    expect(call).toContain('critical');
    // on the board, the killed pick's city-day (nyc, 2026-11-21, the demo's day there) is flagged in words
    tui.press('1');
    await tui.waitFor('[1 Board]');
    await tui.waitFor(/New York City .* KILL/);

    tui.press('q');
    const exit = await tui.exited;
    expect(exit.exitCode).toBe(0);
    // the cursor Ink hid is shown again
    expect(tui.output().lastIndexOf('\u001b[?25h')).toBeGreaterThan(tui.output().lastIndexOf('\u001b[?25l'));
    // the demo's own cache, never the live one
    expect(existsSync(join(env.XDG_DATA_HOME, 'svc-monitor', 'demo', 'cache.db'))).toBe(true);
    expect(existsSync(join(env.XDG_DATA_HOME, 'svc-monitor', 'cache.db'))).toBe(false);
    expect(tui.output()).not.toContain(secret);
  });

  it('opens a prepared cache offline: the same panes with no network, and says what it cannot fit', async () => {
    const dir = join(root, 'offline');
    const env = { XDG_DATA_HOME: join(dir, 'data'), XDG_CONFIG_HOME: join(dir, 'config') };
    // the hand-built cache of helpers/monitor-scene.ts
    const db = join(dir, 'cache.db');
    monitorScene(new HandCache(openCache(db))).close();
    const tui = startTui(['--offline', '--db', db], env);
    running.push(tui);
    await tui.waitFor('OFFLINE');
    tui.press('2');
    // its newest signal: New York's pick of 14:00Z
    await tui.waitFor(/11-21 14:00Z .* New York City .* PICK +A 50-51°F \+ B 52-53°F/);
    tui.press('6');
    await tui.waitFor('[6 History]');
    tui.press('5');
    await tui.waitFor('PRIMARY');

    tui.resize(30, 8);
    await tui.waitFor('Terminal too small (30x8)');
    tui.resize(100, 30);
    await tui.waitFor('PRIMARY');

    tui.press('q');
    expect((await tui.exited).exitCode).toBe(0);
  });
});
