import { afterAll, describe, expect, it } from 'vitest';
import type { BoardRecordTrade } from '../../src/board/board-record.js';
import { bandRecordOf, edgeBandRecord, edgeBandRecords } from '../../src/board/edge-band-record.js';
import { openCache } from '../../src/cache/index.js';
import { fillAsOfDay } from '../cache/as-of-day.js';
import { handCaches, PARIS } from '../helpers/cache-builder.js';

/**
 * DESIGN 4 "an edge's own record": the board's record of an edge's band and venue. A kept record written by hand:
 * paper trades of 10 USD; at 0.25 a share a win pays 10 / 0.25 = 40 USD (P&L +30), a loss -10.
 */
let day = 0;
const trade = (venue: 'mkta' | 'mktb', edge: number, won: boolean): BoardRecordTrade => ({
  city_id: 'paris',
  local_date: `2026-11-${String(1 + (day++ % 28)).padStart(2, '0')}`,
  local_hour: 12,
  venue,
  bucket_slug: '13c',
  bucket_label: '13°C',
  side: 'YES',
  price: 0.25,
  p: 0.25 + edge + 0.01,
  edge,
  settled_value: won ? 13 : 14,
  won,
  pnl: won ? 30 : -10,
});

/**
 * 12 trades at +12 points on mkta, 2 won: hit 2 / 12 = 16.7% -> 17%; P&L 2 x 30 - 10 x 10 = -40 on 120 staked,
 * ROI -33.3% -> -33%. Beside them, what must not count: 5 at +25 points on mkta (0.20+) and 3 at +15 on mktb.
 */
const KEPT: BoardRecordTrade[] = [
  ...Array.from({ length: 12 }, (_, i) => trade('mkta', 0.12, i < 2)),
  ...Array.from({ length: 5 }, () => trade('mkta', 0.25, true)),
  ...Array.from({ length: 3 }, () => trade('mktb', 0.15, false)),
];

describe('an edge band’s record', () => {
  it('gives positions, hit rate and ROI of its band and venue where it has 10 or more', () => {
    const r = bandRecordOf(KEPT, '0.10-0.20', 'mkta');
    expect(r.text).toBe('0.10-0.20 mkta: 12 pos, 17% won, ROI -33%');
    expect([r.totals.n, r.totals.wins, r.totals.staked, r.totals.pnl]).toEqual([12, 2, 120, -40]);
  });

  it('says n < 10 with fewer positions: 5 on mkta at 0.20+, 3 on mktb at 0.10-0.20, none below 0.10', () => {
    expect(bandRecordOf(KEPT, '0.20+', 'mkta').text).toBe('0.20+ mkta record: n < 10');
    expect(bandRecordOf(KEPT, '0.10-0.20', 'mktb').text).toBe('0.10-0.20 mktb record: n < 10');
    expect(bandRecordOf(KEPT, 'min-0.10', 'mkta').totals.n).toBe(0);
  });
});

describe('an edge band’s record of a cache', () => {
  const caches = handCaches('edge-band-record-');
  afterAll(() => caches.close());

  it('says n < 10 on a cache with no settled day, for an edge of each band', () => {
    const h = caches.open().cities(PARIS);
    const rules = { edgeMin: 0.05 };
    expect(edgeBandRecord(h.cache, rules, 0.095, 'mkta').text).toBe('min-0.10 mkta record: n < 10');
    expect(edgeBandRecord(h.cache, rules, 0.1, 'mktb').text).toBe('0.10-0.20 mktb record: n < 10');
    expect(edgeBandRecord(h.cache, rules, 0.2, 'mkta').text).toBe('0.20+ mkta record: n < 10');
  });
});

describe('an edge band’s record kept between reads', () => {
  it('is read again when its version moves, not before', () => {
    // the hand-built New York day settled with three positions at edge_min 0.08 (board-record.unit.test.ts): one at
    // +8.6 points (min-0.10) and two at +24.1 and +32.9 (0.20+), all on mkta
    const cache = openCache(':memory:');
    const rules = { edgeMin: 0.08 };
    expect(edgeBandRecords(cache, rules, { version: 1 })(0.25, 'mkta').totals.n).toBe(0);
    fillAsOfDay(cache);
    // the screen's version did not move: the record kept
    expect(edgeBandRecords(cache, rules, { version: 1 })(0.25, 'mkta').totals.n).toBe(0);
    expect(edgeBandRecords(cache, rules, { version: 2 })(0.25, 'mkta').totals.n).toBe(2);
    cache.close();
  });

  it('looks at the settled days once a recheck interval, and at once without one', () => {
    const cache = openCache(':memory:');
    const rules = { edgeMin: 0.08 };
    expect(edgeBandRecords(cache, rules, { recheckMs: 3_600_000 })(0.09, 'mkta').totals.n).toBe(0);
    fillAsOfDay(cache);
    // within the hour: the days are not looked at again
    expect(edgeBandRecords(cache, rules, { recheckMs: 3_600_000 })(0.09, 'mkta').totals.n).toBe(0);
    expect(edgeBandRecords(cache, rules)(0.09, 'mkta').totals.n).toBe(1);
    cache.close();
  });
});
