import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { No24Record } from '../../src/contract/strategies.js';
import { MonitorApp } from '../../src/tui/render-monitor.js';
import { openRecords, storedLocks, storedPicks, storedTrades } from '../helpers/cache-rows.js';
import { type Filled, fillCache, KEYS, lines, now, renderTui, statusSource } from './fixtures.js';

let filled: Filled;
beforeAll(async () => {
  filled = await fillCache();
});
afterAll(() => filled?.close());

describe('Positions pane', () => {
  it('marks each open record to the newest mkta quote of its bucket: entry, now, stake and unrealised P&L', async () => {
    const cache = filled.copy();
    const open = openRecords<No24Record>(cache, 'no24');
    expect(open.length).toBe(13);
    const app = await renderTui(<MonitorApp cache={cache} source={statusSource()} now={now} />, {
      columns: 130,
      rows: 120,
    });
    await app.press('2');
    const rows = lines(app.frame());
    // the template world's open no24 records (stake 10.00 each), the newest mkta NO quote of each bucket, and the
    // unrealised P&L worked out by hand: shares x now - stake, to the cent
    const expected: [city: string, bucket: string, shares: number, entry: string, now: string, pnl: string][] = [
      ['seattle', '56-57°F', 11.4286, '0.875', '0.845', '-0.34'], // 11.4286 x 0.845 = 9.6572 - 10 = -0.3428
      ['dallas', '66-67°F', 12.9032, '0.775', '0.623', '-1.96'], // 12.9032 x 0.623 = 8.0387 - 10 = -1.9613
      ['chicago', '42-43°F', 13.459, '0.743', '0.646', '-1.31'], // 13.4590 x 0.646 = 8.6945 - 10 = -1.3055
      ['atlanta', '58-59°F', 14.4928, '0.690', '0.602', '-1.28'], // 14.4928 x 0.602 = 8.7247 - 10 = -1.2753
      ['miami', '84-85°F', 12.3762, '0.808', '0.737', '-0.88'], // 12.3762 x 0.737 = 9.1213 - 10 = -0.8787
      ['nyc', '48-49°F', 13.1579, '0.760', '0.632', '-1.68'], // 13.1579 x 0.632 = 8.3158 - 10 = -1.6842
      ['london', '50-51°F', 12.4533, '0.803', '0.580', '-2.78'], // 12.4533 x 0.580 = 7.2229 - 10 = -2.7771
      ['amsterdam', '11°C', 11.534, '0.867', '0.158', '-8.18'], // 11.5340 x 0.158 = 1.8224 - 10 = -8.1776
      ['rome', '16°C', 11.5875, '0.863', '0.162', '-8.12'], // 11.5875 x 0.162 = 1.8772 - 10 = -8.1228
      ['madrid', '19°C', 11.8203, '0.846', '0.171', '-7.98'], // 11.8203 x 0.171 = 2.0213 - 10 = -7.9787
      ['munich', '8°C', 10.5374, '0.949', '0.971', '+0.23'], // 10.5374 x 0.971 = 10.2318 - 10 = +0.2318
      ['berlin', '9°C', 12.7226, '0.786', '0.864', '+0.99'], // 12.7226 x 0.864 = 10.9923 - 10 = +0.9923
      ['paris', '18°C', 12.3001, '0.813', '0.143', '-8.24'], // 12.3001 x 0.143 = 1.7589 - 10 = -8.2411
    ];
    expect(expected.map(([city, , shares]) => [city, shares]).sort()).toEqual(
      open.map((r) => [r.city_id, r.shares]).sort(),
    );
    for (const [city, bucket, , entry, quote, pnl] of expected) {
      const row = rows.find((l) => l.includes('no24') && l.includes(` ${city} `));
      expect(row, city).toMatch(
        new RegExp(`NO  ${bucket} .* ${entry} +${quote}m +10\\.00 +${pnl.replace('+', '\\+')}$`),
      );
    }
    app.unmount();
  });

  it('lists unresolved locks, live picks with their legs and the addon under its parent, open edge trades, and totals by family', async () => {
    const cache = filled.copy();
    const app = await renderTui(<MonitorApp cache={cache} source={statusSource()} now={now} />, {
      columns: 130,
      rows: 120,
    });
    await app.press('2');
    const rows = lines(app.frame());
    const at = (text: string) => rows.findIndex((l) => l.includes(text));
    const sections = [
      'STRATEGY RECORDS (open)',
      'FUSION LOCKS (unresolved)',
      'INSURANCE PICKS (live)',
      'EDGE TRADES (open)',
      'TOTALS BY FAMILY',
    ];
    const places = sections.map(at);
    expect(places.every((p) => p >= 0)).toBe(true);
    expect([...places].sort((a, b) => a - b)).toEqual(places);
    const unresolved = storedLocks(cache).filter((lock) => lock.resolved === false);
    expect(rows.slice(places[1], places[2]).filter((l) => l.includes(' peak ')).length).toBe(unresolved.length);
    // the Paris addon (leg C) sits under its primary pick, after the primary's legs A and B
    const addon = storedPicks(cache).find(
      (p) => p.status === 'open' && p.trade_kind === 'addon' && p.market_date === '2026-11-21',
    );
    const parent = addon?.parent_pick_id?.slice(0, 8) ?? 'none';
    const parentAt = at(`pick ${parent}`);
    expect(parentAt).toBeGreaterThan(places[2] as number);
    expect(rows[parentAt + 1]).toMatch(/ {6}A YES/);
    expect(rows[parentAt + 2]).toMatch(/ {6}B YES/);
    expect(rows[parentAt + 3]).toContain(`└ addon ${addon?.pick_id.slice(0, 8)}`);
    expect(rows[parentAt + 4]).toMatch(/ {8}C YES/);
    const openTrades = storedTrades(cache).filter((t) => t.status === 'open' && t.market_date >= '2026-11-20');
    expect(rows.slice(places[3], places[4]).filter((l) => / x\d/.test(l)).length).toBe(openTrades.length);
    const totals = rows.slice(places[4]);
    expect(totals.find((l) => l.includes('no24'))).toMatch(/no24 +13 +13 +130\.00 +[-+]\d/);
    expect(totals.find((l) => l.includes('svc-max-picks'))).toMatch(/svc-max-picks +0 +0 +0\.00 +—/);
    app.unmount();
  });

  it('without quotes falls back to the record’s own mark (r), and leaves unpriced positions without P&L', async () => {
    const cache = filled.copyWithoutHistory();
    const app = await renderTui(<MonitorApp cache={cache} source={statusSource()} now={now} />, {
      columns: 130,
      rows: 120,
    });
    await app.press('2');
    const rows = lines(app.frame());
    // Seattle's record marks itself at 0.845: 11.4286 shares x 0.845 = 9.6572, less the 10.00 stake = -0.34
    const r = openRecords<No24Record>(cache, 'no24')[0] as No24Record;
    expect([r.city_id, r.shares, r.current_no_price, r.stake]).toEqual(['seattle', 11.4286, 0.845, 10]);
    const row = rows.find((l) => l.includes('no24') && l.includes(' seattle '));
    expect(row).toContain('0.845r');
    expect(row).toMatch(/ -0\.34$/);
    const lockRow = rows.find((l) => l.includes(' peak '));
    expect(lockRow).toMatch(/— +\d+\.\d\d +—$/);
    app.unmount();
  });

  it('Enter shows the selected position in full', async () => {
    const cache = filled.copy();
    const app = await renderTui(<MonitorApp cache={cache} source={statusSource()} now={now} />, {
      columns: 130,
      rows: 60,
    });
    await app.press('2', 'j', 'j', KEYS.enter);
    const detail = app.frame();
    expect(detail).toMatch(/no24 #\d+/);
    expect(detail).toContain('"current_no_price"');
    await app.press(KEYS.escape);
    expect(app.frame()).toContain('STRATEGY RECORDS (open)');
    app.unmount();
  });

  it('counts every open position in the totals, and says when the list (newest 500) holds fewer', async () => {
    const cache = filled.copy();
    const sample = openRecords<No24Record>(cache, 'no24')[0] as No24Record;
    const extra = Array.from({ length: 600 }, (_, i) => ({ ...sample, id: 900_000 + i }));
    cache.resources.upsertStrategy('no24', extra);
    const total = openRecords(cache, 'no24').length;
    expect(total).toBe(613);
    const app = await renderTui(<MonitorApp cache={cache} source={statusSource()} now={now} />, {
      columns: 130,
      rows: 40,
    });
    await app.press('2');
    // the totals are at the end of the pane: G is not a key here, so page down until they show
    let frame = app.frame();
    for (let i = 0; i < 40 && !frame.includes('cover the newest listed'); i++) {
      await app.press(KEYS.pageDown);
      frame = app.frame();
    }
    const row = lines(frame).find((l) => /^\s+no24\s+\d+/.test(l));
    expect(row).toMatch(/^\s+no24\s+613\s/);
    expect(frame).toContain('no24 500 of 613');
    app.unmount();
  });
});
