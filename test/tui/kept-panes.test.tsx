import { afterAll, describe, expect, it } from 'vitest';
import type { Cache } from '../../src/cache/index.js';
import { MonitorApp } from '../../src/tui/render-monitor.js';
import { handCaches, PARIS } from '../helpers/cache-builder.js';
import { monitorScene, now } from '../helpers/monitor-scene.js';
import { REPLAY_DAY, replayDay } from '../helpers/replay-day.js';
import { KEYS, lines, plain, readsSettled, renderTui, statusSource } from './fixtures.js';

const caches = handCaches('tui-kept-');
afterAll(() => caches.close());

const render = (cache: Cache) =>
  renderTui(<MonitorApp cache={cache} source={statusSource()} now={now} initialCity="nyc" />, {
    columns: 130,
    rows: 40,
  });

describe('panes kept between visits', () => {
  it('a key that shows a pane again, or one read in the background since the start, reads nothing', async () => {
    const cache = monitorScene(caches.open());
    const app = await render(cache);
    await app.until((f) => f.includes('Board · 3 cities'), 'the board');
    // the panes not shown yet are read in the background once the first frame is drawn
    await readsSettled(cache);
    for (const [key, shows] of [
      ['3', 'LIVE DAYS (today and ahead)'],
      ['2', 'LOCK SETTLED'],
      ['5', 'New York City (nyc)'],
      ['1', 'Board · 3 cities'],
    ] as const) {
      const before = cache.readStats.queries;
      app.stdin.write(key);
      await app.until((f) => f.includes(shows), `pane ${key}`);
      expect(cache.readStats.queries - before, `queries to show pane ${key}`).toBe(0);
    }
    app.unmount();
  });

  it('Alerts, shown again, is drawn from its store: its list and the newest alert are not read again', async () => {
    const cache = monitorScene(caches.open());
    const app = await render(cache);
    await app.until((f) => f.includes('Board · 3 cities'), 'the board');
    await readsSettled(cache);
    // the first visit draws the scene's live conditions (a failing and two stale streams) into the list warmed
    // without them: that one visit reads its window again, with them
    const alerts = '!  STALE     now          sync current (cur) last good sync 3m ago';
    app.stdin.write('4');
    await app.until((f) => f.includes(alerts), 'the alerts');
    await readsSettled(cache);
    for (const [key, shows] of [
      ['1', 'Board · 3 cities'],
      ['4', alerts],
    ] as const) {
      const before = cache.readStats.queries;
      app.stdin.write(key);
      await app.until((f) => f.includes(shows), `pane ${key}`);
      // the board: nothing; Alerts: at most its own count of the unacknowledged (a small read of the shell's,
      // useCacheQuery, one query) and one more; its list read over the cache was one query a stored segment (4) and
      // the newest alert's id (1) on top of those
      expect(cache.readStats.queries - before, `queries to show pane ${key}`).toBeLessThanOrEqual(key === '1' ? 0 : 2);
    }
    app.unmount();
  });

  it('back on the board from a city, the first frame drawn has the cursor on that city: one commit, no second', async () => {
    const cache = monitorScene(caches.open());
    const app = await render(cache);
    await app.until((f) => f.includes('Board · 3 cities'), 'the board');
    // the row above the cursor (it starts on New York, the city chosen: by local time Paris, London, then New York),
    // opened on Forecasts with Enter, then Esc
    await app.press('k');
    const cursorOn = (f: string) => lines(f).find((l) => l.startsWith('›')) ?? '';
    const moved = await app.until((f) => !cursorOn(f).includes('New York City'), 'the cursor off New York');
    const name = (cursorOn(moved).match(/(New York City|London|Paris)/) as RegExpMatchArray)[1] as string;
    expect(name).toBe('London');
    await app.press(KEYS.enter);
    await app.until((f) => f.includes('[5 Forecasts]'), 'Forecasts');
    const from = app.frames.length;
    app.stdin.write(KEYS.escape);
    await app.until((f) => f.includes('Board · 3 cities'), 'the board again');
    const boards = app.frames
      .slice(from)
      .map(plain)
      .filter((f) => f.includes('Board · 3 cities'));
    expect(boards.length).toBeGreaterThan(0);
    for (const frame of boards) expect(lines(frame).find((l) => l.startsWith('›'))).toContain(name);
    app.unmount();
  });

  it('time travel: the kept board and forecast are of the instant while replaying, of now after Esc, never mixed', async () => {
    // the Paris day of helpers/replay-day.ts (N(12, 1) °C; METAR 07:00Z 8, 09:00Z 10, 10:00Z 11, 11:00Z 12, 12:00Z
    // 13), and a live day five days on: the desk N(15, 2) °C at 06:00Z, 14 °C read at 09:00Z. Now 12:00Z, 13:00 in
    // Paris (UTC+1)
    const h = caches.open();
    const cache = replayDay(h);
    h.forecast(PARIS, '2026-11-25', { mu_c: 15, sigma_c: 2, at: '2026-11-25T06:00:00Z' });
    h.metar(PARIS, '2026-11-25', [['2026-11-25T09:00:00Z', 14]]);
    const app = await renderTui(
      <MonitorApp
        cache={cache}
        source={statusSource()}
        now={() => new Date('2026-11-25T12:00:00Z')}
        initialCity="paris"
      />,
    );
    // the spread (the models' range: 3.6 °F, 2.0 °C, both days) shows when the row's ladder leaves it room
    const paris = (f: string) => lines(f).find((l) => l.startsWith('› Paris')) ?? '';
    // live: 13:00 local, the forecast 15.0±2.0, the high so far 14.0
    const liveRow = /^› Paris +13:00 .* 15\.0±2\.0°C +(?:2\.0 +)?14\.0 /;
    expect(paris(await app.until((f) => liveRow.test(paris(f)), 'the live board'))).toMatch(liveRow);
    // the other panes read in the background: the kept reads of now are all in memory before time travel starts
    await readsSettled(cache);

    // t to 11:30 local on the 20th (10:30Z): the forecast 12.0±1.0, the high 11.0 (read at 10:00Z; 12 comes at 11:00Z)
    const from = app.frames.length;
    await app.press('t', ...`${REPLAY_DAY} 11:30`.split(''), KEYS.enter);
    const thenRow = /^› Paris +11:30 .* 12\.0±1\.0°C +(?:2\.0 +)?11\.0 /;
    await app.until((f) => f.includes(`REPLAY ${REPLAY_DAY} 11:30 `) && thenRow.test(paris(f)), 'the board at 11:30');
    // → a half hour on, 12:00 local (11:00Z): read again, the high now 12.0
    await app.press(KEYS.right);
    const nextRow = /^› Paris +12:00 .* 12\.0±1\.0°C +(?:2\.0 +)?12\.0 /;
    await app.until((f) => f.includes(`REPLAY ${REPLAY_DAY} 12:00 `) && nextRow.test(paris(f)), 'the board at 12:00');
    // the pinned day's forecast page, as of the instant
    await app.press('5');
    expect(await app.until((f) => f.includes('[5 Forecasts]'), 'Forecasts')).toContain(
      'local Fri 12:00 · forecast for 2026-11-20',
    );
    await app.press('1');
    await app.until((f) => f.includes('[1 Board]') && nextRow.test(paris(f)), 'the board at 12:00 again');
    // no frame while replaying showed a row of now, and none at 12:00 the row of 11:30
    const replaying = app.frames.slice(from).map(plain);
    for (const f of replaying.filter((f) => f.includes('REPLAY'))) expect(paris(f)).not.toMatch(/15\.0±2\.0/);
    for (const f of replaying.filter((f) => f.includes(`REPLAY ${REPLAY_DAY} 12:00 `) && f.includes('[1 Board]')))
      expect(paris(f)).toMatch(nextRow);

    // Esc: now again, from memory, and no frame of now shows the instant's row
    const back = app.frames.length;
    await app.press(KEYS.escape);
    await app.until((f) => !f.includes('REPLAY') && liveRow.test(paris(f)), 'the live board again');
    for (const f of app.frames
      .slice(back)
      .map(plain)
      .filter((f) => !f.includes('REPLAY') && f.includes('[1 Board]')))
      expect(paris(f)).toMatch(liveRow);
    await app.press('5');
    expect(await app.until((f) => f.includes('[5 Forecasts]'), 'Forecasts')).toContain(
      'local Wed 13:00 · forecast for 2026-11-25',
    );
    app.unmount();
  });
});
