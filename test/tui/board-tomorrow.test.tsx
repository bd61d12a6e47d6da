import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Cache } from '../../src/cache/index.js';
import { MonitorApp } from '../../src/tui/render-monitor.js';
import { forecasts, quote } from '../helpers/cache-builder.js';
import { BOARD_NOW, boardCache } from './board-fixture.js';
import { KEYS, lines, renderTui, statusSource } from './fixtures.js';

const root = mkdtempSync(join(tmpdir(), 'board-tomorrow-'));
const opened: Cache[] = [];
afterAll(() => {
  for (const c of opened) c.close();
  rmSync(root, { recursive: true, force: true });
});

/**
 * The board's tomorrow row on screen (issue 44 item 9), on board-fixture.ts's cache: at 17:00Z Paris is at 18:00
 * local, its day `passed` (lock peak 15 + 2 h). Added here: Paris's 2026-11-25 listed on mkta at 16:55Z, five buckets,
 * and the desk's forecast of it polled at 16:30Z, N(10, 1) °C. Worked by hand (as in tomorrow-row.unit.test.ts):
 * p = 0.066807, 0.241731, 0.382925, 0.241731, 0.066807; YES 9°C at 0.20: 0.241731 - 0.20 - 0.01 = +3.2 points, the
 * best side; 10°C the favourite.
 */
function tomorrowCache(): Cache {
  const cache = boardCache(root);
  opened.push(cache);
  cache.resources.addForecasts(forecasts('paris', '2026-11-25', { mu_c: 10, sigma_c: 1, at: '2026-11-24T16:30:00Z' }));
  const prices: [string, number, number][] = [
    ['8°C or below', 0.05, 0.94],
    ['9°C', 0.2, 0.78],
    ['10°C', 0.4, 0.58],
    ['11°C', 0.25, 0.73],
    ['12°C or higher', 0.05, 0.94],
  ];
  cache.resources.upsertHistorical(
    'mkta_buckets_history',
    prices.map(([label, yes, no], i) => quote(9100 + i, 'paris', '2026-11-25', '2026-11-24T16:55:00Z', label, yes, no)),
  );
  return cache;
}

describe('the Board’s tomorrow row', () => {
  it('sits under its city marked tomorrow, with its ladder and best edge; Enter says Forecasts shows the day', async () => {
    const cache = tomorrowCache();
    const app = await renderTui(<MonitorApp cache={cache} source={statusSource()} now={() => new Date(BOARD_NOW)} />, {
      columns: 120,
      rows: 40,
    });
    const frame = await app.until((f) => f.includes('tomorrow') && f.includes('Board ·'), 'the tomorrow row');
    // three cities: the tomorrow row is no fourth
    expect(frame).toContain('Board · 3 cities · by local time');
    const rows = lines(frame);
    const paris = rows.findIndex((l) => l.slice(2).startsWith('Paris '));
    const next = rows[paris + 1] ?? '';
    // by local time Paris (18:00) first, then its tomorrow row right under it, New York (12:00), Seattle (09:00)
    expect(rows[paris - 1]?.trim().startsWith('city')).toBe(true);
    expect(next.slice(2).startsWith('  tomorrow')).toBe(true);
    expect(rows[paris + 2]?.slice(2).startsWith('New York City')).toBe(true);
    expect(rows[paris + 3]?.slice(2).startsWith('Seattle')).toBe(true);
    for (const cell of ['early', '10.0±1.0°C', '--*--', '+3.2 YES 9°C 0.20 mkta']) expect(next).toContain(cell);
    // Enter on it (one up from New York, the cursor's city): the city on Forecasts, and a word that tomorrow's market
    // is the board's row
    await app.press(KEYS.up);
    await app.press(KEYS.enter);
    const opened = await app.until((f) => f.includes('Paris (paris)'), 'Paris on Forecasts');
    expect(opened).toContain("Forecasts shows Paris's current market day; 2026-11-25 is on the board's tomorrow row");
    app.unmount();
  });
});
