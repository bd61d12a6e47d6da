import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FusionLock } from '../../src/contract/fusion-locks.js';
import type { HistoricalRow } from '../../src/contract/historical.js';
import type { StrategyRecord } from '../../src/contract/strategies.js';
import { MonitorApp } from '../../src/tui/render-monitor.js';
import { exported, historicalCount, newestExported } from '../helpers/cache-rows.js';
import { type Filled, fillCache, KEYS, lines, now, renderTui, statusSource } from './fixtures.js';

let filled: Filled;
beforeAll(async () => {
  filled = await fillCache();
});
afterAll(() => filled?.close());

/** The ids of the rows a History frame shows. */
const ids = (frame: string) =>
  lines(frame)
    .map((l) => l.match(/^[› ] +(\d+) /)?.[1])
    .filter((id): id is string => id !== undefined)
    .map(Number);

describe('History pane', () => {
  it('reads only the rows it shows: a page of a 100,000-row table costs what a page of an 800-row one does', async () => {
    const cache = filled.copy();
    const total = historicalCount(cache, 'mkta_buckets_history');
    expect(total).toBeGreaterThan(100_000);
    const newest = newestExported<HistoricalRow>(cache, 'historical/mkta_buckets_history')?.id as number;
    const app = await renderTui(<MonitorApp cache={cache} source={statusSource()} now={now} />);
    const before = cache.readStats.rows;
    await app.press('6');
    const first = ids(app.frame());
    const height = first.length;
    expect(height).toBeGreaterThan(20);
    expect(first).toEqual(Array.from({ length: height }, (_, i) => newest - i));
    expect(cache.readStats.rows - before).toBeLessThan(3 * height);

    const perPage: number[] = [];
    for (let page = 1; page <= 50; page++) {
      const read = cache.readStats.rows;
      await app.press(KEYS.pageDown);
      perPage.push(cache.readStats.rows - read);
    }
    // the window after 50 pages starts 50 pages further down; each page read a page and a probe row
    expect(ids(app.frame())[0]).toBe(newest - 50 * height);
    expect(Math.max(...perPage)).toBeLessThanOrEqual(2 * (height + 1));

    // the same keys on the 800-row table cost the same rows a page
    await app.press(KEYS.right, KEYS.right);
    expect(app.frame()).toContain('◂ forecast_accuracy_daily ▸');
    expect(historicalCount(cache, 'forecast_accuracy_daily')).toBeLessThan(1000);
    const small: number[] = [];
    for (let page = 1; page <= 5; page++) {
      const read = cache.readStats.rows;
      await app.press(KEYS.pageDown);
      small.push(cache.readStats.rows - read);
    }
    expect(small).toEqual(perPage.slice(0, 5));
    app.unmount();
  });

  it('/ filters by city and dates and keeps paging by keyset inside the filter', async () => {
    const cache = filled.copy();
    const expected = cache.export
      .rows('historical/mkta_buckets_history', { cityId: 'nyc', since: '2026-11-20', until: '2026-11-20' })
      .map((json) => (JSON.parse(json) as HistoricalRow).id);
    const app = await renderTui(<MonitorApp cache={cache} source={statusSource()} now={now} />);
    await app.press('6', '/');
    await app.press(...'nyc 2026-11-20..2026-11-20'.split(''), KEYS.enter);
    const frame = await app.until((f) => f.includes('city nyc · 2026-11-20..2026-11-20'), 'the filter');
    const shown = ids(frame);
    expect(shown).toEqual(expected.slice(0, shown.length));
    for (const row of lines(frame).filter((l) => /^[› ] +\d+ /.test(l)))
      expect(row).toMatch(/ nyc +\S+ 11-20 \d\d:\d\dZ/);
    await app.press(KEYS.pageDown, KEYS.pageDown);
    expect(ids(app.frame())).toEqual(expected.slice(2 * shown.length, 3 * shown.length));
    // the filter stays with the pane
    await app.press('2', '6');
    expect(app.frame()).toContain('city nyc · 2026-11-20..2026-11-20');
    await app.press('/', ...Array(30).fill(KEYS.backspace), ...'atlantis'.split(''), KEYS.enter);
    expect(app.frame()).toContain("'atlantis' is neither a city id");
    await app.press('/', ...Array(30).fill(KEYS.backspace), KEYS.enter);
    expect(app.frame()).toContain('no filter');
    app.unmount();
  });

  it('browses strategy families and fusion locks too', async () => {
    const cache = filled.copy();
    const app = await renderTui(<MonitorApp cache={cache} source={statusSource()} now={now} />);
    // neither copied in nor kept by a live history stream
    await app.press('6', KEYS.left, KEYS.left);
    expect(app.frame()).toContain('◂ pws_observations_history ▸');
    expect(app.frame()).toContain('No rows cached here');
    // the tables go round: the strategy families come first
    await app.press(...Array(7).fill(KEYS.left));
    expect(app.frame()).toContain('◂ no24 ▸');
    const newest = exported<StrategyRecord>(cache, 'no24').slice(0, 3);
    expect(ids(app.frame()).slice(0, 3)).toEqual(newest.map((r) => r.id));
    await app.press(KEYS.right, KEYS.right, KEYS.right);
    expect(app.frame()).toContain('◂ fusion-locks ▸');
    const lock = newestExported<FusionLock>(cache, 'fusion-locks') as FusionLock;
    expect(lines(app.frame()).find((l) => l.startsWith('›'))).toContain(lock.id);
    app.unmount();
  });

  it('s summarises P&L and hit rate by family and city, fusion-lock hit rate and forecast error by city', async () => {
    const cache = filled.copy();
    const app = await renderTui(<MonitorApp cache={cache} source={statusSource()} now={now} />, {
      columns: 120,
      rows: 200,
    });
    await app.press('6', 's');
    const frame = app.frame();
    for (const family of ['no24', 'yescore', 'svc-max-picks'] as const) {
      const settled = cache.export
        .rows(family)
        .map((json) => JSON.parse(json) as StrategyRecord)
        .filter((r) => r.outcome !== null);
      const wins = settled.filter((r) => r.outcome === 'win').length;
      const pnl = settled.reduce((n, r) => n + r.stake * (r.roi ?? 0), 0);
      const hit = `${Math.round((wins / settled.length) * 100)}%`;
      const sign = pnl >= 0 ? '\\+' : '-';
      expect(frame, family).toMatch(
        new RegExp(`${family} +ALL +${settled.length} +${wins} +${hit} +[\\d.]+ +${sign}${Math.abs(pnl).toFixed(2)}`),
      );
    }
    const nycLocks = cache.export
      .rows('fusion-locks', { cityId: 'nyc' })
      .map((json) => JSON.parse(json) as FusionLock)
      .filter((l) => l.resolved);
    const hits = nycLocks.filter((l) => l.hit).length;
    const section = frame.slice(frame.indexOf('FUSION LOCKS'));
    expect(section).toMatch(
      new RegExp(`nyc +${nycLocks.length} +${hits} +${Math.round((hits / nycLocks.length) * 100)}%`),
    );
    const scores = cache.export
      .rows('historical/forecast_accuracy_daily', { cityId: 'nyc' })
      .map((json) => JSON.parse(json) as { abs_error: number });
    const mae = scores.reduce((n, s) => n + s.abs_error, 0) / scores.length;
    const errors = frame.slice(frame.indexOf('FORECAST ERROR BY CITY'));
    expect(errors).toMatch(new RegExp(`nyc +${scores.length} +${mae.toFixed(2)}°F`));
    app.unmount();
  });

  it('re-reads once for a burst of commits (coalesced change events), and shows the new rows', async () => {
    const cache = filled.copy();
    const app = await renderTui(<MonitorApp cache={cache} source={statusSource()} now={now} coalesceMs={100} />);
    await app.press('6');
    const top = ids(app.frame())[0] as number;
    const template = newestExported<HistoricalRow>(cache, 'historical/mkta_buckets_history') as HistoricalRow;
    const queries = cache.readStats.queries;
    // 300 commits in one go, as a busy sync makes them: one transaction each, no await in between
    for (let i = 1; i <= 300; i++)
      cache.resources.upsertHistorical('mkta_buckets_history', [{ ...template, id: top + i }]);
    const frame = await app.until((f) => ids(f)[0] === top + 300, 'the new rows');
    expect(ids(frame).slice(0, 3)).toEqual([top + 300, top + 299, top + 298]);
    // one window read (the pane) for 300 commits, not 300
    expect(cache.readStats.queries - queries).toBeLessThanOrEqual(2);
    app.unmount();
  });
});
