import { afterAll, describe, expect, it } from 'vitest';
import type { HistoricalRow } from '../../src/contract/historical.js';
import { MonitorApp } from '../../src/tui/render-monitor.js';
import { forecastScore, type HandCache, handCaches, quote } from '../helpers/cache-builder.js';
import { historicalCount } from '../helpers/cache-rows.js';
import { monitorScene, now } from '../helpers/monitor-scene.js';
import { KEYS, lines, readsSettled, renderTui, statusSource } from './fixtures.js';

const caches = handCaches('tui-history-');
afterAll(() => caches.close());

/** The ids of the rows a History frame shows. */
const ids = (frame: string) =>
  lines(frame)
    .map((l) => l.match(/^[› ] +(\d+) /)?.[1])
    .filter((id): id is string => id !== undefined)
    .map(Number);

const CITIES = ['nyc', 'london', 'paris'];
const BUCKETS = ['47°F or below', '48-49°F', '50-51°F', '52-53°F', '54°F or higher'];
const HALF_HOUR = 1_800_000;

/**
 * `count` mkta rows with ids `firstId`, `firstId` + 1, ...: half-hourly snapshots back from 2026-11-21T14:00Z, each
 * of 3 cities x 5 buckets (15 rows, the oldest snapshot first), dated by their UTC day. Returns what was written.
 */
function quoteVolume(h: HandCache, count: number, firstId: number): HistoricalRow[] {
  const snapshots = Math.ceil(count / 15);
  const rows: HistoricalRow[] = [];
  for (let i = 0; i < count; i++) {
    const s = Math.floor(i / 15);
    const at = new Date(Date.parse('2026-11-21T14:00:00Z') - (snapshots - 1 - s) * HALF_HOUR).toISOString();
    const city = CITIES[Math.floor(i / 5) % 3] as string;
    rows.push(quote(firstId + i, city, at.slice(0, 10), at.replace('.000Z', 'Z'), BUCKETS[i % 5] as string, 0.2, 0.8));
  }
  h.historical('mkta_buckets_history', rows);
  return rows;
}

describe('History pane', () => {
  it('reads only the rows it shows: a page of a 100,000-row table costs what a page of an 800-row one does', async () => {
    const h = caches.open();
    const cache = monitorScene(h);
    // the scene's 13 quotes (ids 4..16), then 100,000 more with ids 1,000,001..1,100,000; the scene's 4 forecast
    // scores and 796 more (ids 2,000,001..2,000,796): 800
    quoteVolume(h, 100_000, 1_000_001);
    h.historical(
      'forecast_accuracy_daily',
      Array.from({ length: 796 }, (_, i) =>
        forecastScore(2_000_001 + i, CITIES[i % 3] as string, '2026-10-01', 'F', 50, 51),
      ),
    );
    expect(historicalCount(cache, 'mkta_buckets_history')).toBe(100_013);
    expect(historicalCount(cache, 'forecast_accuracy_daily')).toBe(800);
    const newest = 1_100_000;
    const app = await renderTui(<MonitorApp cache={cache} source={statusSource()} now={now} />);
    // the other panes' reads in the background after the first frame are not History's
    await readsSettled(cache);
    const before = cache.readStats.rows;
    const first = ids(await app.pane('6'));
    const height = first.length;
    expect(height).toBeGreaterThan(20);
    expect(first).toEqual(Array.from({ length: height }, (_, i) => newest - i));
    expect(cache.readStats.rows - before).toBeLessThan(3 * height);

    /**
     * PgDn, waited for until the window starts at `top`; the rows it read, the page the store reads ahead in the
     * background after it included (so each measure starts and ends with nothing under way).
     */
    const pageDown = async (top: number) => {
      await readsSettled(cache);
      const read = cache.readStats.rows;
      await app.press(KEYS.pageDown);
      await app.until((f) => ids(f)[0] === top, `the page from id ${top}`);
      await readsSettled(cache);
      return cache.readStats.rows - read;
    };
    const perPage: number[] = [];
    for (let page = 1; page <= 50; page++) perPage.push(await pageDown(newest - page * height));
    // the window after 50 pages starts 50 pages further down; each page read a page and a probe row
    expect(ids(app.frame())[0]).toBe(newest - 50 * height);
    expect(Math.max(...perPage)).toBeLessThanOrEqual(2 * (height + 1));

    // the same keys on the 800-row table cost the same rows a page
    await app.press(KEYS.right);
    await app.until((f) => f.includes('◂ mktb_buckets_history ▸'), 'the next table');
    await app.press(KEYS.right);
    // its newest row first: the last of the 796 added
    await app.until((f) => f.includes('◂ forecast_accuracy_daily ▸') && ids(f)[0] === 2_000_796, 'the 800-row table');
    const small: number[] = [];
    for (let page = 1; page <= 5; page++) small.push(await pageDown(2_000_796 - page * height));
    expect(small).toEqual(perPage.slice(0, 5));
    app.unmount();
  });

  it('/ filters by city and dates and keeps paging by keyset inside the filter', async () => {
    const h = caches.open();
    const cache = monitorScene(h);
    // 3,000 rows: 200 snapshots back from 11-21 14:00Z, so 11-17 10:30Z to 11-21 14:00Z; nyc's of its 11-20 market
    // day (New York's midnights, 11-20 05:00Z to 11-21 05:00Z, not the UTC day) are 48 snapshots x 5 buckets, newest
    // (highest id) first
    const written = quoteVolume(h, 3000, 1_000_001);
    const inDay = (at: string) => at >= '2026-11-20T05:00:00Z' && at < '2026-11-21T05:00:00Z';
    const expected = written
      .filter((r) => r.city_id === 'nyc' && inDay(String(r.snapshot_at)))
      .map((r) => r.id)
      .reverse();
    expect(expected).toHaveLength(240);
    const app = await renderTui(<MonitorApp cache={cache} source={statusSource()} now={now} />);
    await app.pane('6');
    await app.press('/');
    await app.press(...'nyc 2026-11-20..2026-11-20'.split(''), KEYS.enter);
    const frame = await app.until((f) => f.includes('city nyc · 2026-11-20..2026-11-20'), 'the filter');
    const shown = ids(frame);
    expect(shown).toEqual(expected.slice(0, shown.length));
    for (const row of lines(frame).filter((l) => /^[› ] +\d+ /.test(l)))
      expect(row).toMatch(/ nyc +\S+ (11-20 (0[5-9]|1\d|2\d)|11-21 0[0-4]):\d\dZ/);
    await app.press(KEYS.pageDown);
    await app.until((f) => ids(f)[0] === expected[shown.length], 'the second page');
    await app.press(KEYS.pageDown);
    const third = await app.until((f) => ids(f)[0] === expected[2 * shown.length], 'the third page');
    expect(ids(third)).toEqual(expected.slice(2 * shown.length, 3 * shown.length));
    // the filter stays with the pane
    await app.pane('2');
    expect(await app.pane('6')).toContain('city nyc · 2026-11-20..2026-11-20');
    await app.press('/', ...Array(30).fill(KEYS.backspace), ...'atlantis'.split(''), KEYS.enter);
    await app.until((f) => f.includes("'atlantis' is neither a city id"), 'the refusal');
    await app.press('/', ...Array(30).fill(KEYS.backspace), KEYS.enter);
    await app.until((f) => f.includes('no filter'), 'no filter');
    app.unmount();
  });

  it('browses strategy families and fusion locks too', async () => {
    const cache = monitorScene(caches.open());
    const app = await renderTui(<MonitorApp cache={cache} source={statusSource()} now={now} />);
    // the scene holds no PWS row
    await app.pane('6');
    /** One arrow key, waited for until the table it leads to shows. */
    const turn = async (key: string, table: string) => {
      await app.press(key);
      return app.until((f) => f.includes(`◂ ${table} ▸`), table);
    };
    await turn(KEYS.left, 'forecast_history');
    expect(await turn(KEYS.left, 'pws_observations_history')).toContain('No rows cached here');
    // the tables go round: the strategy families come first
    for (const table of [
      'wxb_history',
      'wxa_history',
      'metar_observations_history',
      'fusion-locks',
      'svc-max-picks',
      'yescore',
    ])
      await turn(KEYS.left, table);
    // the scene's no24 records, newest first: #104 and #103 (paris, 11-21), #102 (london)
    expect(ids(await turn(KEYS.left, 'no24')).slice(0, 3)).toEqual([104, 103, 102]);
    await turn(KEYS.right, 'yescore');
    await turn(KEYS.right, 'svc-max-picks');
    const locks = await turn(KEYS.right, 'fusion-locks');
    // the newest lock: Paris' and London's of 11-21 were both locked at 14:00Z, Paris' id sorts last
    expect(lines(locks).find((l) => l.startsWith('›'))).toContain('L-paris-1121');
    app.unmount();
  });

  it('s summarises P&L and hit rate by family and city, fusion-lock hit rate and forecast error by city', async () => {
    const cache = monitorScene(caches.open());
    const app = await renderTui(<MonitorApp cache={cache} source={statusSource()} now={now} />, {
      columns: 120,
      rows: 200,
    });
    await app.pane('6');
    await app.press('s');
    const frame = await app.until((f) => f.includes('FORECAST ERROR BY CITY'), 'the summaries');
    // the scene's settled records (stake x roi): no24 +2.50 (win), -10.00 (loss), +1.00 (win); yescore +30.00 (win),
    // -10.00 (loss); svc-max -5.00 (loss)
    expect(frame).toMatch(/no24 +ALL +3 +2 +67% +30\.00 +-6\.50/);
    expect(frame).toMatch(/yescore +ALL +2 +1 +50% +20\.00 +\+20\.00/);
    expect(frame).toMatch(/svc-max-picks +ALL +1 +0 +0% +5\.00 +-5\.00/);
    // nyc's resolved locks: 11-19 hit (25 tokens at 0.40: +15.00), 11-20 miss (25 at 0.32: -8.00)
    const section = frame.slice(frame.indexOf('FUSION LOCKS'));
    expect(section).toMatch(/nyc +2 +1 +50% +18\.00 +\+7\.00/);
    // nyc's forecast scores: errors 1.0 and 2.6 °F, mean 1.80
    const errors = frame.slice(frame.indexOf('FORECAST ERROR BY CITY'));
    expect(errors).toMatch(/nyc +2 +1\.80°F/);
    app.unmount();
  });

  it('re-reads once for a burst of commits (coalesced change events), and shows the new rows', async () => {
    const cache = monitorScene(caches.open());
    const app = await renderTui(<MonitorApp cache={cache} source={statusSource()} now={now} coalesceMs={100} />);
    // the scene's newest quote: paris 13°C, id 16
    const top = ids(await app.pane('6'))[0] as number;
    expect(top).toBe(16);
    // the other panes' reads in the background after the first frame are not History's
    await readsSettled(cache);
    const queries = cache.readStats.queries;
    // 300 commits in one go, as a busy sync makes them: one transaction each, no await in between
    for (let i = 1; i <= 300; i++)
      cache.resources.upsertHistorical('mkta_buckets_history', [
        quote(top + i, 'paris', '2026-11-21', '2026-11-21T15:00:00Z', '13°C', 0.25, 0.77),
      ]);
    const frame = await app.until((f) => ids(f)[0] === top + 300, 'the new rows');
    expect(ids(frame).slice(0, 3)).toEqual([top + 300, top + 299, top + 298]);
    // one window read (the pane) for 300 commits, not 300
    expect(cache.readStats.queries - queries).toBeLessThanOrEqual(2);
    app.unmount();
  });
});
