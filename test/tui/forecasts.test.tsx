import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Cache } from '../../src/cache/index.js';
import { MonitorApp } from '../../src/tui/render-monitor.js';
import { BOARD_NOW, boardCache, forecasts as dayForecasts, lock } from './board-fixture.js';
import { KEYS, lines, renderTui, statusSource } from './fixtures.js';

/*
 * The hand-built cache of board-fixture.ts (its comment gives every figure). 17:00Z on Tuesday 2026-11-24 is 12:00 in
 * New York and 18:00 in Paris. New York, N(21, 1) °C = 69.8 ± 1.8 °F, METAR high 20 °C = 68.0 °F (settles at 68),
 * worked in board.test.tsx: on the whole-°C lattice 65°F or below holds 18 °C and under, 66-67 holds 19 °C,
 * 68-69 20 °C, 70-71 21 °C, 72 or higher 22 °C and over; p 0, 0, 0.259036, 0.410339, 0.330626.
 * The larger side of the effective edge of each (cost 0.01 on every quote):
 *   65-    NO 1 - 0 - 0.99 - 0.01 = 0.0 on mkta       66-67  NO 1 - 0 - 0.97 - 0.01 = +2.0 on mkta
 *   68-69  NO 0.740964 - 0.72 - 0.01 = +1.1 on mkta     70-71  YES 0.410339 - 0.28 - 0.01 = +12.0 on mktb
 *   72+    YES 0.330626 - 0.30 - 0.01 = +2.1 on mkta
 */
const root = mkdtempSync(join(tmpdir(), 'forecasts-test-'));
const opened: Cache[] = [];
afterAll(() => {
  for (const c of opened) c.close();
  rmSync(root, { recursive: true, force: true });
});
const now = () => new Date(BOARD_NOW);

async function forecasts(city: string, size = { columns: 130, rows: 60 }, fill?: (cache: Cache) => void) {
  const cache = boardCache(root);
  fill?.(cache);
  opened.push(cache);
  const app = await renderTui(<MonitorApp cache={cache} source={statusSource()} now={now} initialCity={city} />, size);
  await app.press('5');
  await app.until((f) => f.includes(`(${city}) ·`), 'the Forecasts pane');
  return app;
}

/** The left column of the two-column page (the buckets, the payoff, the desk), without its trailing blanks. */
const left = (frame: string) => lines(frame).map((l) => (l.split(' │')[0] ?? '').trimEnd());

describe('Forecasts pane', () => {
  it('shows the primary forecast in the market unit with sigma, pacing and reasoning, the ensemble, every model and the four sources', async () => {
    const app = await forecasts('nyc');
    const frame = app.frame();
    expect(frame).toContain(
      'New York City (nyc) · KLGA · market in °F · local Tue 12:00 · forecast for 2026-11-24, fetched 11-24 16:05Z',
    );
    // the °F aliases of the forecast: 69.8 ± 1.8 °F (21 ± 1 °C)
    expect(frame).toContain('69.8°F ± 1.8°F   pacing +0.4°C (metar)');
    expect(frame).toContain('hand-made: the models agree on a mild afternoon');
    // the ensemble in °C converted: 21 °C = 69.8 °F, 1 °C = 1.8 °F
    expect(frame).toContain('69.8°F ± 1.8°F · 2 models');
    expect(frame).toContain('weights: gfs 0.60, icon 0.40');
    expect(frame).toMatch(/gfs +68\.0°F █/);
    expect(frame).toMatch(/icon +72\.0°F █/);
    for (const source of ['wxa 68.5°F', 'wxb 67.9°F', 'METAR 68.0°F', 'PWS 68.9°F']) expect(frame).toContain(source);
    app.unmount();
  });

  it('prices every bucket of the newest snapshots on the whole-°C lattice, beside both venues’ bid/ask and edges', async () => {
    // wide enough for the venues' snapshots beside the table's title in the left column (98 wide)
    const app = await forecasts('nyc', { columns: 200, rows: 60 });
    const page = left(app.frame());
    const at = page.findIndex((l) => l.startsWith('MARKET BUCKETS'));
    expect(page.slice(at, at + 2)).toEqual([
      'MARKET BUCKETS  N(69.8, 1.80) °F · mkta snapshot 11-24 16:55Z · mktb snapshot 11-24 16:55Z',
      '  prices YES bid/ask (bid = 1 - NO) · edge Y/N points',
    ]);
    expect(page[at + 2]).toBe(
      '  METAR high so far 20°C, 68.0°F (settles at 68°F or more): buckets below 68°F are dead',
    );
    expect(page[at + 3]).toMatch(/^ {2}bucket +holds +model +mkta +mktb +edge a +edge b$/);
    // each venue's YES bid (1 - its NO price) / ask (its YES price), and its own larger side of the edge: mkta's
    // 70-71 YES 0.410339 - 0.30 - 0.01 = +10.0 beside mktb's +12.0 (the day's best); mktb quotes 70-71 only
    const rows = page.slice(at + 4, at + 9);
    // YES 0.01 and NO 0.99: the venue's floor and ceiling, no offer (DESIGN 4), no edge
    expect(rows[0]).toMatch(/^ {2}65°F or below +≤18°C +dead +0\.010\/0\.010 +— +— +—$/);
    // 1 - 0.97 = 0.03 bid
    expect(rows[1]).toMatch(/^ {2}66-67°F +19°C +dead +0\.030\/0\.050 +— +N\+2\.0 +—$/);
    expect(rows[2]).toMatch(/^ {2}68-69°F +20°C +25\.9% +0\.280\/0\.300 +— +N\+1\.1 +—$/);
    // no CROSS: mktb's ask 0.28 against mkta's bid 1 - 0.72 = 0.28 leaves 0 - 0.02 after costs
    expect(rows[3]).toMatch(/^ {2}70-71°F +21°C +41\.0% +0\.280\/0\.300 +0\.260\/0\.280 +Y\+10\.0 +Y\+12\.0$/);
    expect(rows[4]).toMatch(/^ {2}72°F or higher +≥22°C +33\.1% +0\.280\/0\.300 +— +Y\+2\.1 +—$/);
    app.unmount();
  });

  it('a °C market: no lattice column; before any snapshot the buckets are laid out around the forecast', async () => {
    // Paris, N(12, 0.5) °C, METAR high 13 °C: X >= 12.5 (z >= 1), mass 1 - Φ(1) = 0.158655; 13°C: (Φ(3) - Φ(1)) /
    // 0.158655 = (0.998650 - 0.841345) / 0.158655 = 0.991491; 12°C and below dead
    const app = await forecasts('paris', { columns: 200, rows: 60 });
    const page = left(app.frame());
    const at = page.findIndex((l) => l.startsWith('MARKET BUCKETS'));
    expect(page[at]).toBe(
      'MARKET BUCKETS  N(12.0, 0.50) °C · no mkta snapshot cached: buckets laid out around the forecast',
    );
    expect(page[at + 1]).toBe('  METAR high so far 13°C (settles at 13°C or more): buckets below 13°C are dead');
    expect(page[at + 2]).toMatch(/^ {2}bucket +model +mkta +mktb +edge a +edge b$/);
    expect(page.find((l) => l.startsWith('  12°C '))).toMatch(/^ {2}12°C +dead +— +— +— +—$/);
    expect(page.find((l) => l.startsWith('  13°C '))).toMatch(/^ {2}13°C +99\.1% +— +— +— +—$/);
    app.unmount();
  });

  it('charts the hourly forecast against today’s METAR readings, with distinct marks and a now marker', async () => {
    const app = await forecasts('nyc');
    const chart = lines(app.frame()).filter((l) => l.includes('┤'));
    expect(chart.length).toBeGreaterThanOrEqual(5);
    // 19 °C at 09:00 and 20 °C at 11:00 local from the history, 68.0 °F at 11:50 from /current
    expect(chart.join('').split(/[●◉]/).length - 1).toBeGreaterThanOrEqual(2);
    expect(chart.join('')).toContain('·');
    expect(app.frame()).toMatch(/└[┬─]+\^/);
    app.unmount();
  });

  it('u shows every temperature in the other unit (and back); buckets stay in the market’s unit', async () => {
    const app = await forecasts('nyc');
    await app.press('u');
    const celsius = app.frame();
    expect(celsius).toContain('showing °C (u)');
    expect(celsius).toContain('21.0°C ± 1.0°C');
    // the warmest model: 72 °F = 22.2 °C
    expect(celsius).toMatch(/icon +22\.2°C █/);
    expect(celsius).toContain('°F · mkta snapshot');
    await app.press('u');
    expect(app.frame()).toContain('69.8°F ± 1.8°F   pacing');
    app.unmount();
  });

  it('u keeps the payoff in the market’s unit; a holding added to the day is in it at once, in either unit', async () => {
    // wide enough for the payoff's whole title in the left column
    const app = await forecasts('nyc', { columns: 200, rows: 60 });
    const payoff = (frame: string) => {
      const page = left(frame);
      const at = page.findIndex((l) => l.startsWith('PAYOFF BY OUTCOME'));
      return page.slice(at, at + 7);
    };
    // the fixture's book (board.test.tsx works it out): the YES 66-67, the NO 72+ and the lock on 70-71, 27.00 staked
    const before = payoff(app.frame());
    expect(before[0]).toBe('PAYOFF BY OUTCOME  3 holdings, 27.00 USD staked: if the day settles in');
    expect(before[5]).toBe('  70-71°F         YES           60.00    +33.00');
    await app.press('u');
    expect(app.frame()).toContain('showing °C (u)');
    expect(payoff(app.frame())).toEqual(before);
    // a second lock, on 68-69°F: 10 tokens at 0.50 stake 5.00 (32.00 in all) and pay 10 there, beside the NO's 20
    opened.at(-1)?.resources.upsertFusionLocks([lock('L-nyc-2', 'nyc', '68-69f', '68-69°F', 0.5, 10)]);
    const after = payoff(await app.until((f) => f.includes('4 holdings'), 'the new lock in the payoff'));
    expect(after).toEqual([
      'PAYOFF BY OUTCOME  4 holdings, 32.00 USD staked: if the day settles in',
      '  bucket          held           pays       P&L',
      // the NO 20: 20 - 32
      '  65°F or below                 20.00    -12.00  dead',
      // the YES 10 and the NO 20: 30 - 32
      '  66-67°F         YES           30.00     -2.00  dead',
      // the NO 20 and the new lock 10: 30 - 32
      '  68-69°F         YES           30.00     -2.00',
      // the NO 20 and the first lock 40: 60 - 32
      '  70-71°F         YES           60.00    +28.00',
      // the NO loses where its bucket wins: 0 - 32
      '  72°F or higher  NO             0.00    -32.00',
    ]);
    await app.press('u');
    expect(payoff(app.frame())).toEqual(after);
    app.unmount();
  });

  it('puts the run on a line of its own at 80 columns, so its date is never cut off', async () => {
    const app = await forecasts('nyc', { columns: 80, rows: 24 });
    const page = lines(app.frame());
    const at = page.findIndex((l) => l.startsWith('New York City (nyc)'));
    expect(page.slice(at, at + 2)).toEqual([
      'New York City (nyc) · KLGA · market in °F · local Tue 12:00',
      'forecast for 2026-11-24, fetched 11-24 16:05Z',
    ]);
    app.unmount();
  });

  it("says which day it has no forecast for: Seattle's today, with only tomorrow's cached, or none at all", async () => {
    // 09:00 in Seattle on 11-24, its only forecast the next day's (as once the service has rolled over): the page is
    // today's, and the cache holds a forecast for this city, just not for this day
    const tomorrowOnly = await forecasts('sea', undefined, (cache) =>
      cache.resources.addForecasts(
        dayForecasts('sea', { mu_f: 50, mu_c: 10, sigma_f: 1.8, sigma_c: 1 }, { f: 51, c: 10.56 }, 2, '2026-11-25'),
      ),
    );
    expect(left(tomorrowOnly.frame())).toContain('PRIMARY  no forecast cached for 2026-11-24');
    tomorrowOnly.unmount();
    const none = await forecasts('sea');
    expect(left(none.frame())).toContain('PRIMARY  no forecast cached for 2026-11-24');
    none.unmount();
  });

  it('c chooses the city; the chooser has the keys while it is open', async () => {
    const app = await forecasts('nyc');
    await app.press('c');
    const chooser = app.frame();
    expect(chooser).toContain('Choose a city');
    expect(lines(chooser).find((l) => l.startsWith('›'))).toContain('New York City');
    await app.press('3');
    expect(lines(app.frame())[0]).toContain('[5 Forecasts]');
    // the cities are in id order: paris follows nyc
    await app.press('j', KEYS.enter);
    const paris = await app.until((f) => f.includes('Paris (paris)'), 'Paris');
    expect(paris).toContain('Paris (paris) · LFPG · market in °C · local Tue 18:00');
    expect(paris).toContain('12.0°C ± 0.5°C');
    app.unmount();
  });
});
