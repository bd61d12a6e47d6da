import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BucketQuote } from '../../src/cache/market-reads.js';
import type { No24Record } from '../../src/contract/strategies.js';
import { MonitorApp } from '../../src/tui/render-monitor.js';
import { type Filled, fillCache, KEYS, lines, now, renderTui, statusSource } from './fixtures.js';

let filled: Filled;
beforeAll(async () => {
  filled = await fillCache();
});
afterAll(() => filled?.close());

const signed = (n: number) => `${n > 0 ? '+' : n < 0 ? '-' : '±'}${Math.abs(n).toFixed(2)}`;

describe('Positions pane', () => {
  it('marks each open record to the newest mkta quote of its bucket: entry, now, stake and unrealised P&L', async () => {
    const cache = filled.copy();
    const open = cache.reads.strategies('no24', { open: true }) as No24Record[];
    expect(open.length).toBe(13);
    const app = await renderTui(<MonitorApp cache={cache} source={statusSource()} now={now} />, {
      columns: 130,
      rows: 120,
    });
    await app.press('2');
    const rows = lines(app.frame());
    for (const r of open) {
      const quote = cache
        .exportRows('historical/mkta_buckets_history', { cityId: r.city_id })
        .map((json) => JSON.parse(json) as BucketQuote)
        .find((q) => q.local_date === r.local_date && q.bucket_slug === r.bucket_slug) as BucketQuote;
      const pnl = Math.round((r.shares * quote.no_price - r.stake) * 100) / 100;
      const row = rows.find((l) => l.includes('no24') && l.includes(` ${r.city_id} `));
      expect(row, r.city_id).toMatch(
        new RegExp(
          `NO  ${r.bucket_label} .* ${r.no_ask.toFixed(3)} +${quote.no_price.toFixed(3)}m +10\\.00 +${signed(pnl).replace('+', '\\+')}`,
        ),
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
    const unresolved = cache.reads.fusionLocks({ resolved: false });
    expect(rows.slice(places[1], places[2]).filter((l) => l.includes(' peak ')).length).toBe(unresolved.length);
    // the Paris addon (leg C) sits under its primary pick, after the primary's legs A and B
    const addon = cache.inbox
      .picks({ status: 'open' })
      .find((p) => p.trade_kind === 'addon' && p.market_date === '2026-11-21');
    const parent = addon?.parent_pick_id?.slice(0, 8) ?? 'none';
    const parentAt = at(`pick ${parent}`);
    expect(parentAt).toBeGreaterThan(places[2] as number);
    expect(rows[parentAt + 1]).toMatch(/ {6}A YES/);
    expect(rows[parentAt + 2]).toMatch(/ {6}B YES/);
    expect(rows[parentAt + 3]).toContain(`└ addon ${addon?.pick_id.slice(0, 8)}`);
    expect(rows[parentAt + 4]).toMatch(/ {8}C YES/);
    const openTrades = cache.inbox.trades({ status: 'open' }).filter((t) => t.market_date >= '2026-11-20');
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
    const r = (cache.reads.strategies('no24', { open: true }) as No24Record[])[0] as No24Record;
    const pnl = Math.round((r.shares * r.current_no_price - r.stake) * 100) / 100;
    const row = rows.find((l) => l.includes('no24') && l.includes(` ${r.city_id} `));
    expect(row).toContain(`${r.current_no_price.toFixed(3)}r`);
    expect(row).toContain(signed(pnl));
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
    const sample = cache.reads.strategies('no24', { open: true })[0] as No24Record;
    const extra = Array.from({ length: 600 }, (_, i) => ({ ...sample, id: 900_000 + i }));
    cache.upsertStrategy('no24', extra);
    const total = cache.reads.strategies('no24', { open: true }).length;
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
