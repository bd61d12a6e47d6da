import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { render } from 'ink-testing-library';
import { createElement, Fragment } from 'react';
import { afterAll, describe, expect, it } from 'vitest';
import { type Cache, openCache } from '../../src/cache/index.js';
import { MonitorApp, type MonitorStatus } from '../../src/tui/render-monitor.js';
import { PATIENCE_MS } from '../helpers/patience.js';

const root = mkdtempSync(join(tmpdir(), 'svc-status-bar-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const NOW = Date.parse('2026-03-02T12:00:00Z');
const STREAMS = ['cities', 'current', 'forecasts', 'no24', 'yescore', 'svc-max-picks', 'fusion-locks'];
const HISTORY = ['mkta-buckets', 'mktb-buckets', 'metar', 'daily'];

/** A cache built by hand: one city, and every stream's last good pass 12 s before now. */
function cache(): Cache {
  const c = openCache(join(root, `cache-${Math.random().toString(36).slice(2)}.db`));
  c.resources.upsertCities([
    {
      city_id: 'paris',
      city_name: 'Paris',
      country: 'FR',
      lat: 48.7,
      lon: 2.4,
      tz: 'Europe/Paris',
      icao: 'LFPO',
      station_name: 'Orly',
    },
  ]);
  for (const s of [...STREAMS, ...HISTORY]) c.streams.recordSuccess(s, new Date(NOW - 12_000).toISOString(), 1);
  return c;
}

const STATUS: MonitorStatus = {
  mode: 'live',
  host: 'svc.test:443',
  connection: { state: 'ok', lastGoodAt: '2026-03-02T11:59:48Z' },
  listener: { state: 'listening', url: 'http://127.0.0.1:8788/', accepted: 12, duplicates: 3, rejected: 1 },
};

/** The groups as the bar writes them (each on its own, whole): worked out from the cache and status above. */
const GROUPS = [
  ' LIVE  svc.test:443', // 19 columns
  'ok 11:59:48Z', // 12
  'sync cty 12s cur 12s fc 12s n24 12s yes 12s max 12s lock 12s', // 4 + ' cty 12s' 8 + ' cur 12s' 8 + ' fc 12s' 7 + 3 x 8 + ' lock 12s' 9 = 60
  'hook 127.0.0.1:8788 ok 12 dup 3 rej 1', // 37
  '12:00:00Z paris Mon 13:00', // 25: Paris is UTC+1 in March, 2026-03-02 a Monday
  'hist mtr 12s mka 12s mkb 12s day 12s', // 36
];

describe('the status bar at 80, 120, 140, 160, 200 and 250 columns', () => {
  it('shows whole groups only, on one line when they fit and two when not, leaving groups out with a marker', async () => {
    const c = cache();
    const source = { getStatus: () => STATUS, subscribe: () => () => {} };
    const bar: Record<number, string[]> = {};
    try {
      for (const width of [80, 120, 140, 160, 200, 250]) {
        // a monitor drawn at this width from its first frame: one resized from the last width could still show the
        // frame drawn before the resize on a loaded machine (a resize's redraw: e2e/fullscreen.test.ts)
        const app = render(createElement(Fragment));
        Object.defineProperty(app.stdout, 'columns', { value: width, configurable: true });
        Object.defineProperty(app.stdout, 'rows', { value: 30, configurable: true });
        app.rerender(<MonitorApp cache={c} source={source} now={() => new Date(NOW)} noColor tickMs={3_600_000} />);
        try {
          const deadline = Date.now() + PATIENCE_MS;
          while (!(app.lastFrame() ?? '').includes(`${GROUPS[0]} ·`)) {
            if (Date.now() > deadline) throw new Error(`no status bar at ${width} columns:\n${app.lastFrame()}`);
            await new Promise((r) => setTimeout(r, 10));
          }
          const lines = (app.lastFrame() ?? '').split('\n').map((l) => l.trimEnd());
          bar[width] = lines.slice(lines.findIndex((l) => l.startsWith(GROUPS[0] as string)));
        } finally {
          app.unmount();
        }
        for (const l of bar[width] ?? []) {
          expect(l.length).toBeLessThanOrEqual(width);
          for (const piece of l.split(' · '))
            expect(GROUPS.includes(piece) || /^\+\d more$/.test(piece), piece).toBe(true);
        }
      }
    } finally {
      c.close();
    }
    // all six: 19 + 12 + 60 + 37 + 25 + 36 = 189 columns and five separators of 3: 204 <= 250
    expect(bar[250]).toEqual([GROUPS.join(' · ')]);
    // 200: the first five are 153 + 4 x 3 = 165; with the history 204 > 200: it goes below
    expect(bar[200]).toEqual([GROUPS.slice(0, 5).join(' · '), GROUPS[5]]);
    // 160 and 140: 165 > 160, so the clock goes below too: 19 + 12 + 60 + 37 + 9 = 137; then 25 + 3 + 36 = 64
    expect(bar[160]).toEqual([GROUPS.slice(0, 4).join(' · '), GROUPS.slice(4).join(' · ')]);
    expect(bar[140]).toEqual([GROUPS.slice(0, 4).join(' · '), GROUPS.slice(4).join(' · ')]);
    // 120: 19 + 12 + 60 + 6 = 97 (+ 3 + 37 > 120); 37 + 25 + 36 + 6 = 104
    expect(bar[120]).toEqual([GROUPS.slice(0, 3).join(' · '), GROUPS.slice(3).join(' · ')]);
    // 80: three lines would be needed; the history (least important), then the other streams go:
    // 19 + 12 + 37 + 6 = 74 (+ 3 + 25 > 80); 25 + 3 + '+2 more' 7 = 35
    expect(bar[80]).toEqual([[GROUPS[0], GROUPS[1], GROUPS[3]].join(' · '), `${GROUPS[4]} · +2 more`]);
  });

  it('never shows the clock behind the answer beside it (the demo world clock runs two minutes a real second)', async () => {
    const c = cache();
    // a pass that ended 7 s of world time after the clock's last tick (12:00:00Z)
    const ahead: MonitorStatus = { ...STATUS, connection: { state: 'ok', lastGoodAt: '2026-03-02T12:00:07Z' } };
    const source = { getStatus: () => ahead, subscribe: () => () => {} };
    const app = render(<MonitorApp cache={c} source={source} now={() => new Date(NOW)} noColor tickMs={3_600_000} />);
    try {
      Object.defineProperty(app.stdout, 'columns', { value: 250, configurable: true });
      Object.defineProperty(app.stdout, 'rows', { value: 30, configurable: true });
      app.stdout.emit('resize');
      let frame = '';
      for (let i = 0; i < 200 && !frame.includes('ok 12:00:07Z'); i++) {
        await new Promise((r) => setTimeout(r, 10));
        frame = app.lastFrame() ?? '';
      }
      // the clock reads 12:00:07Z, Paris 13:00 (UTC+1), not the tick's 12:00:00Z
      expect(frame).toContain('ok 12:00:07Z');
      expect(frame).toContain('12:00:07Z paris Mon 13:00');
      expect(frame).not.toContain('12:00:00Z');
    } finally {
      app.unmount();
      c.close();
    }
  });

  it('names the service clock’s offset from this machine’s once it is over 5 s (DESIGN 4)', async () => {
    const c = cache();
    const source = { getStatus: () => STATUS, subscribe: () => () => {} };
    let offset: number | null = 252_000;
    // the clock moves (a tick re-draws the bar only when its second changed)
    const started = Date.now();
    const app = render(
      <MonitorApp
        cache={c}
        source={source}
        now={() => new Date(NOW + Date.now() - started)}
        clockOffsetMs={() => offset}
        noColor
        tickMs={50}
      />,
    );
    const frameWith = async (wanted: (frame: string) => boolean) => {
      let frame = '';
      // a frame with the bar's clock in it that shows what is wanted
      for (let i = 0; i < 400 && !(frame.includes('paris Mon 13:00') && wanted(frame)); i++) {
        await new Promise((r) => setTimeout(r, 10));
        frame = app.lastFrame() ?? '';
      }
      return frame;
    };
    try {
      Object.defineProperty(app.stdout, 'columns', { value: 250, configurable: true });
      Object.defineProperty(app.stdout, 'rows', { value: 30, configurable: true });
      app.stdout.emit('resize');
      // 252 s = 4 min 12 s ahead
      expect(await frameWith((f) => f.includes('clock'))).toMatch(/12:\d\d:\d\dZ paris Mon 13:00 clock \+4m12s ·/);
      // 5 s behind is within the bound: not named
      offset = -5_000;
      expect(await frameWith((f) => !f.includes('clock'))).toMatch(/12:\d\d:\d\dZ paris Mon 13:00 ·/);
      // a day and 4 hours behind; then unknown (no answer yet): not named
      offset = -(28 * 3_600_000 + 59_000);
      expect(await frameWith((f) => f.includes('clock'))).toContain('13:00 clock -1d04h ·');
      offset = null;
      expect(await frameWith((f) => !f.includes('clock'))).toMatch(/12:\d\d:\d\dZ paris Mon 13:00 ·/);
    } finally {
      app.unmount();
      c.close();
    }
  });
  it('offline: no stream is stale however old the cache, and the bar says how old it is', async () => {
    const c = cache();
    // the newest good pass 3 h 20 min before now (the others 12 s before, as above, then older than that)
    for (const st of [...STREAMS, ...HISTORY])
      c.streams.recordSuccess(st, new Date(NOW - 5 * 3_600_000).toISOString(), 1);
    c.streams.recordSuccess('current', new Date(NOW - 200 * 60_000).toISOString(), 1);
    const offline: MonitorStatus = {
      mode: 'offline',
      host: null,
      connection: { state: 'offline' },
      listener: { state: 'off', accepted: 0, duplicates: 0, rejected: 0 },
    };
    const source = { getStatus: () => offline, subscribe: () => () => {} };
    const app = render(<MonitorApp cache={c} source={source} now={() => new Date(NOW)} noColor tickMs={50} />);
    try {
      Object.defineProperty(app.stdout, 'columns', { value: 250, configurable: true });
      Object.defineProperty(app.stdout, 'rows', { value: 30, configurable: true });
      app.stdout.emit('resize');
      let frame = '';
      for (let i = 0; i < 400 && !frame.includes('cache synced'); i++) {
        await new Promise((r) => setTimeout(r, 10));
        frame = app.lastFrame() ?? '';
      }
      const bar = frame.split('\n').slice(-2).join('\n');
      // current 3 h 20 min (3h), every other stream 5 h: live they would be dead, marked !
      expect(bar).toContain('no network (offline) · cache synced 3h ago');
      expect(bar).toContain('sync cty 5h cur 3h fc 5h n24 5h yes 5h max 5h lock 5h');
      expect(bar).toContain('hist mtr 5h mka 5h mkb 5h day 5h');
      expect(bar).not.toMatch(/\d[smhd][!*]/);
    } finally {
      app.unmount();
      c.close();
    }
  });
});
