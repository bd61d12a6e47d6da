import { afterAll, describe, expect, it } from 'vitest';
import type { Cache } from '../../src/cache/index.js';
import { MonitorApp } from '../../src/tui/render-monitor.js';
import { handCaches } from '../helpers/cache-builder.js';
import { monitorScene, now } from '../helpers/monitor-scene.js';
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
      ['3', 'STRATEGY RECORDS (open)'],
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

  it('back on the board from a city, the first frame drawn has the cursor on that city: one commit, no second', async () => {
    const cache = monitorScene(caches.open());
    const app = await render(cache);
    await app.until((f) => f.includes('Board · 3 cities'), 'the board');
    // the row below the cursor (it starts on New York, the city chosen), opened on Forecasts with Enter, then Esc
    await app.press('j');
    const selected = lines(app.frame()).find((l) => l.startsWith('›')) ?? '';
    const name = (selected.match(/(New York City|London|Paris)/) as RegExpMatchArray)[1] as string;
    expect(name).not.toBe('New York City');
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
});
