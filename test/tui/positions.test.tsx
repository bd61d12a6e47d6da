import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INBOX_ALERT_RULES } from '../../src/alerts/kill-alert.js';
import type { Cache } from '../../src/cache/index.js';
import type { InsuranceEvent } from '../../src/contract/events.js';
import type { No24Record } from '../../src/contract/strategies.js';
import { MonitorApp } from '../../src/tui/render-monitor.js';
import { openRecords, storedLocks, storedPicks, storedTrades } from '../helpers/cache-rows.js';
import { type Filled, fillCache, KEYS, lines, now, renderTui, statusSource } from './fixtures.js';

/**
 * Hedges the live Paris pick with an addon (leg C on 17°C), as the service's insurance engine would and the
 * listener stores it. The template world hedges rarely (two addons in 30 days, none live at the fixture's instant)
 * since its desk stopped chasing single METAR readings.
 */
function hedgeParis(cache: Cache): string {
  const primary = storedPicks(cache).find(
    (p) => p.city_id === 'paris' && p.market_date === '2026-11-21' && p.trade_kind === 'primary',
  );
  if (!primary) throw new Error('the fixture has no live Paris pick');
  const addonId = '7d1c2b3a-4e5f-4a6b-8c7d-9e0f1a2b3c4d';
  const event: InsuranceEvent = {
    event_id: '6c5b4a39-2817-4f6e-9d5c-4b3a29180f7e',
    event_type: 'insurance.addon.created',
    event_version: 1,
    created_at: '2026-11-21T14:20:00Z',
    attempt: 1,
    market: {
      city: 'paris',
      market_date: '2026-11-21',
      market_tz: primary.market_tz as string,
      bucket_unit: 'C',
      event_slug: primary.event_slug as string,
      mkta_url: primary.mkta_url as string,
    },
    trade: { pick_id: addonId, trade_seq: 2, trade_kind: 'addon', parent_pick_id: primary.pick_id, total_cost_usd: 5 },
    legs: [
      {
        leg: 'C',
        bucket_slug: '17c',
        bucket_label: '17°C',
        bucket_low: 17,
        bucket_high: 17,
        token_id_yes: '31234567890123456789012345678901234567890123456789012345678901234567890',
        snapshot_price: 0.347,
        stake_usd: 5,
        shares: 14.4092, // 5 / 0.347
        max_slippage_bps: 200,
        side: 'YES',
      },
    ],
    kill: null,
  };
  const body = JSON.stringify(event);
  const [outcome] = cache.inbox.intake(
    [
      {
        eventId: event.event_id,
        replayKey: null,
        eventType: event.event_type,
        deliveryId: 'd-addon',
        receivedAt: event.created_at,
        body,
        event,
      },
    ],
    INBOX_ALERT_RULES,
  );
  expect(outcome).toBe('stored');
  return addonId;
}

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
    await app.press('3');
    const rows = lines(app.frame());
    // the template world's open no24 records (stake 10.00 each), the newest mkta NO quote of each bucket, and the
    // unrealised P&L worked out by hand: shares x now - stake, to the cent
    const expected: [city: string, bucket: string, shares: number, entry: string, now: string, pnl: string][] = [
      ['seattle', '56-57°F', 10.2669, '0.974', '0.995', '+0.22'], // 10.2669 x 0.995 = 10.2156 - 10 = +0.2156
      ['dallas', '66-67°F', 188.6792, '0.053', '0.119', '+12.45'], // 188.6792 x 0.119 = 22.4528 - 10 = +12.4528
      ['chicago', '42-43°F', 136.9863, '0.073', '0.030', '-5.89'], // 136.9863 x 0.030 = 4.1096 - 10 = -5.8904
      ['atlanta', '58-59°F', 10.989, '0.910', '0.848', '-0.68'], // 10.9890 x 0.848 = 9.3187 - 10 = -0.6813
      ['miami', '84-85°F', 10.01, '0.999', '0.986', '-0.13'], // 10.0100 x 0.986 = 9.8699 - 10 = -0.1301
      ['nyc', '48-49°F', 31.1526, '0.321', '0.215', '-3.30'], // 31.1526 x 0.215 = 6.6978 - 10 = -3.3022
      ['london', '50-51°F', 12.5156, '0.799', '0.999', '+2.50'], // 12.5156 x 0.999 = 12.5031 - 10 = +2.5031
      ['amsterdam', '11°C', 175.4386, '0.057', '0.014', '-7.54'], // 175.4386 x 0.014 = 2.4561 - 10 = -7.5439
      ['rome', '16°C', 37.1747, '0.269', '0.009', '-9.67'], // 37.1747 x 0.009 = 0.3346 - 10 = -9.6654
      ['madrid', '19°C', 53.1915, '0.188', '0.462', '+14.57'], // 53.1915 x 0.462 = 24.5745 - 10 = +14.5745
      ['munich', '8°C', 10.01, '0.999', '0.999', '±0.00'], // 10.0100 x 0.999 = 9.99999 - 10 = -0.00001: no sign
      ['berlin', '9°C', 12.7714, '0.783', '0.999', '+2.76'], // 12.7714 x 0.999 = 12.7586 - 10 = +2.7586
      ['paris', '18°C', 138.8889, '0.072', '0.006', '-9.17'], // 138.8889 x 0.006 = 0.8333 - 10 = -9.1667
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
    hedgeParis(cache);
    const app = await renderTui(<MonitorApp cache={cache} source={statusSource()} now={now} />, {
      columns: 130,
      rows: 120,
    });
    await app.press('3');
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
    await app.press('3');
    const rows = lines(app.frame());
    // Seattle's record marks itself at 0.995: 10.2669 shares x 0.995 = 10.2156, less the 10.00 stake = +0.22
    const r = openRecords<No24Record>(cache, 'no24')[0] as No24Record;
    expect([r.city_id, r.shares, r.current_no_price, r.stake]).toEqual(['seattle', 10.2669, 0.995, 10]);
    const row = rows.find((l) => l.includes('no24') && l.includes(' seattle '));
    expect(row).toContain('0.995r');
    expect(row).toMatch(/ \+0\.22$/);
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
    await app.press('3', 'j', 'j', KEYS.enter);
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
    await app.press('3');
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
