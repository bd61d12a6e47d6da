import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type BoardRecordTrade,
  exportBoardRecord,
  readBoardRecord,
  recordSpread,
  recordSummary,
  recordTrades,
} from '../../src/board/board-record.js';
import { type Cache, type DayQuote, openCache, type RecordDay, type RecordHour } from '../../src/cache/index.js';
import { fillAsOfDay } from '../cache/as-of-day.js';

/**
 * The board's record (DESIGN 4) on one settled day built by hand: Paris (°C, metar_c) settled at 13 °C. Every figure
 * is worked here from the normal table, none from the simulated world.
 *
 * 12:00 local: the desk N(12, 1), METAR high 11 °C so far. Conditioned on X >= 10.5: P(X >= 10.5) = Phi(1.5) =
 * 0.933193, so (Phi(0.5) = 0.691462, Phi(-0.5) = 0.308538, Phi(-1.5) = 0.066807)
 *   11°C or below  (10.5..11.5)  0.241731 / 0.933193 = 0.259036
 *   12°C           (11.5..12.5)  0.382925 / 0.933193 = 0.410341
 *   13°C           (12.5..13.5)  0.241731 / 0.933193 = 0.259036
 *   14°C or higher (13.5..)      0.066807 / 0.933193 = 0.071589
 * Every quote below sums to 0.98..1.01, so its cost is 0.01 (max(0.01, half the overround)).
 */
let id = 0;
const quote = (label: string, yes: number, no: number, at = '2026-11-10T11:00:00Z'): DayQuote => ({
  id: ++id,
  bucket_slug: label,
  bucket_label: label,
  yes_price: yes,
  no_price: no,
  snapshot_at: at,
});
const hour = (h: number, o: Partial<RecordHour>): RecordHour => ({
  hour: h,
  atMs: Date.parse(`2026-11-10T${String(h - 1).padStart(2, '0')}:00:00Z`),
  desk: { predicted_max_c: 12, sigma_c: 1 },
  // 11 °C since 08:30Z (09:30 in Paris)
  high: { c: 11, f: 51.8, since: Date.parse('2026-11-10T08:30:00Z') },
  quotes: { mkta: [], mktb: [] },
  ...o,
});
const MKTA = [
  quote('11°C or below', 0.1, 0.88),
  quote('12°C', 0.41, 0.6),
  quote('13°C', 0.15, 0.84),
  quote('14°C or higher', 0.16, 0.83),
];

const DAY: RecordDay = {
  city_id: 'paris',
  local_date: '2026-11-10',
  unit: 'C',
  settled: 13,
  hours: [
    hour(12, {
      quotes: {
        mkta: MKTA,
        // mktb's YES on 11°C or below at 0 is no offer: its edge 0.249036 is not taken, mkta's 0.10 is
        mktb: [quote('11°C or below', 0, 0.99), quote('13°C', 0.04, 0.97)],
      },
    }),
    // no snapshot at 13:00 on either venue: no trade at an older price
    hour(13, {}),
    // a running high of 20 °C against N(12, 1): CHECK, the board offers no edge
    hour(14, { high: { c: 20, f: 68, since: Date.parse('2026-11-10T12:30:00Z') }, quotes: { mkta: MKTA, mktb: [] } }),
    // no desk forecast for the day: no p, no edge
    hour(15, { desk: null, quotes: { mkta: MKTA, mktb: [] } }),
    // 16:00 (15:00Z): the 12:00 prices again, but snapshotted at 14:40Z, before the desk's run of 14:45Z that the board
    // prices with: a stale price offers nothing, whatever its edge against the newer run
    hour(16, {
      desk: { predicted_max_c: 12, sigma_c: 1, fetched_at: '2026-11-10T14:45:00Z' },
      quotes: { mkta: MKTA.map((q) => ({ ...q, snapshot_at: '2026-11-10T14:40:00Z' })), mktb: [] },
    }),
  ],
};

describe('the board’s record', () => {
  const trades = recordTrades([DAY], { edgeMin: 0.08 });

  it('takes each bucket side whose edge reached edge_min, at its better venue’s price, settled by the day', () => {
    expect(trades.map(({ p: _p, edge: _e, ...t }) => t)).toEqual([
      // YES 11°C or below: mkta 0.259036 - 0.10 - 0.01 = 0.149036; the day settled at 13: lost, -10
      {
        city_id: 'paris',
        local_date: '2026-11-10',
        local_hour: 12,
        venue: 'mkta',
        bucket_slug: '11°C or below',
        bucket_label: '11°C or below',
        side: 'YES',
        price: 0.1,
        settled_value: 13,
        won: false,
        pnl: -10,
      },
      // YES 13°C: mktb 0.259036 - 0.04 - 0.01 = 0.209036 beats mkta's 0.099036; won: 10 / 0.04 - 10 = 240
      expect.objectContaining({ bucket_label: '13°C', side: 'YES', venue: 'mktb', price: 0.04, won: true, pnl: 240 }),
      // NO 14°C or higher: mkta (1 - 0.071589) - 0.83 - 0.01 = 0.088411; won: 10 / 0.83 - 10 = 2.048193 -> 2.05
      expect.objectContaining({ bucket_label: '14°C or higher', side: 'NO', venue: 'mkta', price: 0.83, won: true }),
    ]);
    expect(trades[2]?.pnl).toBe(2.05);
    expect(trades.map((t) => t.p)).toEqual([
      expect.closeTo(0.259036, 5),
      expect.closeTo(0.259036, 5),
      expect.closeTo(0.071589, 5),
    ]);
    expect(trades.map((t) => t.edge)).toEqual([
      expect.closeTo(0.149036, 5),
      expect.closeTo(0.209036, 5),
      expect.closeTo(0.088411, 5),
    ]);
    // 12°C: YES 0.410341 - 0.41 - 0.01 = -0.009659, NO 0.589659 - 0.60 - 0.01 = -0.020341: nothing
  });

  it('takes a position once a city-day, venue, bucket and side: at its first qualifying hour, at that hour’s price', () => {
    // 13:00 (12:00Z) quotes mkta again, snapshotted at 11:30Z: YES 11°C or below now at 0.05 (edge 0.259036 - 0.05 -
    // 0.01 = 0.199036), NO 14°C or higher at 0.80 (0.928411 - 0.80 - 0.01 = 0.118411), and a new side, NO 13°C at
    // 0.62 (0.740964 - 0.62 - 0.01 = 0.110964). The first two were taken at 12:00 already: only NO 13°C is new, and
    // it is lost (the day settled at 13): -10.
    const again = MKTA.map((q) => ({ ...q, snapshot_at: '2026-11-10T11:30:00Z' }));
    const later = [
      { ...(again[0] as DayQuote), yes_price: 0.05, no_price: 0.96 },
      again[1] as DayQuote,
      { ...(again[2] as DayQuote), yes_price: 0.37, no_price: 0.62 },
      { ...(again[3] as DayQuote), yes_price: 0.21, no_price: 0.8 },
    ];
    const day: RecordDay = {
      ...DAY,
      hours: [DAY.hours[0] as RecordHour, hour(13, { quotes: { mkta: later, mktb: [] } })],
    };
    expect(
      recordTrades([day], { edgeMin: 0.08 }).map((t) => [t.local_hour, t.venue, t.bucket_label, t.side, t.price]),
    ).toEqual([
      [12, 'mkta', '11°C or below', 'YES', 0.1],
      [12, 'mktb', '13°C', 'YES', 0.04],
      [12, 'mkta', '14°C or higher', 'NO', 0.83],
      [13, 'mkta', '13°C', 'NO', 0.62],
    ]);
  });

  it('a higher edge_min takes fewer', () => {
    // only the 0.209036 edge is at least 0.15
    expect(recordTrades([DAY], { edgeMin: 0.15 }).map((t) => t.bucket_label)).toEqual(['13°C']);
  });

  it('sums them: n, hit rate, staked, P&L, ROI, Brier, and by city, venue, hour and edge band', () => {
    const summary = recordSummary(trades);
    // P&L -10 + 240 + 2.05 = 232.05 on 3 x 10 staked: ROI 7.735. Brier of the side's p against its outcome:
    // 0.259036^2 = 0.067100 (lost), (1 - 0.259036)^2 = 0.549028 (won), (1 - 0.928411)^2 = 0.005125 (won): mean 0.207084
    expect(summary.all).toEqual({
      n: 3,
      wins: 2,
      hitRate: expect.closeTo(2 / 3, 9),
      staked: 30,
      pnl: 232.05,
      roi: expect.closeTo(7.735, 9),
      brier: expect.closeTo(0.207084, 5),
    });
    expect(summary.byCity.map((c) => [c.city_id, c.totals.n])).toEqual([['paris', 3]]);
    expect(summary.byVenue.map((v) => [v.venue, v.totals.n, v.totals.pnl])).toEqual([
      ['mkta', 2, -7.95],
      ['mktb', 1, 240],
    ]);
    expect(summary.byHour.map((h) => [h.hour, h.totals.n])).toEqual([[12, 3]]);
    expect(summary.byBand.map((b) => [b.band, b.totals.n, b.totals.wins])).toEqual([
      ['min-0.10', 1, 1],
      ['0.10-0.20', 1, 0],
      ['0.20+', 1, 1],
    ]);
  });

  it('with no trade, says so rather than dividing by nothing', () => {
    expect(recordSummary([]).all).toEqual({ n: 0, wins: 0, hitRate: null, staked: 0, pnl: 0, roi: null, brier: null });
    expect(recordSummary([]).spread).toEqual({ positions: 0, cityDays: 0, largestDay: null });
  });

  it('says how it spreads: positions, the city-days they are on, and the largest day’s share of the P&L', () => {
    // the day above: 3 positions on 1 city-day, which made all of the +232.05
    expect(recordSummary(trades).spread).toEqual({
      positions: 3,
      cityDays: 1,
      largestDay: { city_id: 'paris', local_date: '2026-11-10', pnl: 232.05, share: 1 },
    });
    const t = (city_id: string, local_date: string, pnl: number): BoardRecordTrade => ({
      ...(trades[0] as BoardRecordTrade),
      city_id,
      local_date,
      pnl,
    });
    // a gain: atlanta 11-16 +30 +15 = +45, atlanta 11-17 -10, paris 11-16 -10 +5 = -5: +30 on 3 city-days (a city's
    // days apart, one date's cities apart); atlanta 11-16 made 45 / 30 = 150% of it, the others lost 15
    const gain = [
      t('atlanta', '2026-11-16', 30),
      t('atlanta', '2026-11-16', 15),
      t('atlanta', '2026-11-17', -10),
      t('paris', '2026-11-16', -10),
      t('paris', '2026-11-16', 5),
    ];
    expect(recordSpread(gain)).toEqual({
      positions: 5,
      cityDays: 3,
      largestDay: { city_id: 'atlanta', local_date: '2026-11-16', pnl: 45, share: 1.5 },
    });
    // a loss: +45, -10 and paris 11-16 -40: -5 in all; the day that lost most lost 8 times that (-40 / -5), though
    // atlanta 11-16's +45 is larger in size
    const loss = [...gain.slice(0, 3), t('paris', '2026-11-16', -40)];
    expect(recordSpread(loss).largestDay).toEqual({ city_id: 'paris', local_date: '2026-11-16', pnl: -40, share: 8 });
    // a P&L of 0 has no share: the day largest in size, the first of two the same size
    const even = [t('paris', '2026-11-16', -10), t('atlanta', '2026-11-17', 10)];
    expect(recordSpread(even).largestDay).toEqual({
      city_id: 'atlanta',
      local_date: '2026-11-17',
      pnl: 10,
      share: null,
    });
  });
});

describe('the board’s record from a cache', () => {
  /**
   * The hand-built New York day of test/cache/as-of-day.ts, settled at 55 °F (13 °C), mkta only, edge_min 0.08, °F
   * market under metar_c: 52-53°F holds 11 °C (51.8 -> 52), 54-55°F holds 12 and 13 °C (53.6 -> 54, 55.4 -> 55).
   * 09:00: N(11, 1), high 9 °C: alive Phi(2.5) = 0.993790; 52-53 0.382925 / 0.993790 = 0.385318, 54-55
   *   (Phi(2.5) - Phi(0.5)) / 0.993790 = 0.304217; at 0.30/0.70 and 0.40/0.60: only NO 54-55, 0.695783 - 0.60 - 0.01
   *   = 0.085783, at 0.60: lost (55 is in 54-55), -10.
   * 11:00: N(12.5, 0.8), high 9: 52-53 Phi(-1.25) - Phi(-2.5) = 0.099440, 54-55 Phi(1.25) - Phi(-1.25) = 0.788700; at
   *   0.35/0.65 and 0.45/0.55: NO 52-53 0.90056 - 0.65 - 0.01 = 0.24056, won, 10 / 0.65 - 10 = 5.38; YES 54-55
   *   0.7887 - 0.45 - 0.01 = 0.3287, won, 10 / 0.45 - 10 = 12.22.
   * 13:00: high 12 °C: 52-53 dead (p 0); at 0.10/0.90: NO 52-53 1 - 0.90 - 0.01 = 0.09, but NO 52-53 on mkta is held
   *   since 11:00 (DESIGN 4: one position a city-day, venue, bucket and side); 54-55 0.788700 / 0.894350 = 0.881869,
   *   YES 0.881869 - 0.80 - 0.01 = 0.071869: under 0.08.
   * 10:00, 12:00 and 14:00-16:00 have no snapshot within their half hour: no trade.
   */
  let cache: Cache;
  beforeEach(() => {
    cache = openCache(':memory:');
    fillAsOfDay(cache);
  });
  afterEach(() => cache.close());

  it('exports its trades with DESIGN 3’s precision: p, price and edge to 4 decimals', () => {
    // the edges below, 0.085783, 0.24056 and 0.3287 (to 4 places), as 4 decimals
    const trades = exportBoardRecord(cache, { edgeMin: 0.08 }, { cityId: 'nyc' });
    expect(trades.map((t) => t.edge)).toEqual([0.0858, 0.2406, 0.3287]);
    expect(trades.map((t) => t.price)).toEqual([0.6, 0.65, 0.45]);
    for (const t of trades) expect(Number.isInteger(Math.round(t.p * 1e4 * 1e6) / 1e6)).toBe(true);
  });

  it('prices an hour with the day’s own run when the desk already forecasts the next day', () => {
    // after a day's peak the desk's polled forecast is of the next day (its local_date 2026-11-25), polled here at
    // 15:30Z (10:30 local), before the 11:00 hour: the hour keeps the day's own newest run (forecast_history 15:05Z,
    // N(12.5, 0.8)), as the board does, so the same three trades as below, not the 09:00 one alone
    cache.resources.addForecasts({
      city_id: 'nyc',
      svc_pro_forecast: {
        city_id: 'nyc',
        local_date: '2026-11-25',
        unit: 'F',
        predicted_max_c: 30,
        predicted_max_f: 86,
        sigma_c: 1,
        sigma_f: 1.8,
        fetched_at: '2026-11-24T15:30:00Z',
      },
      edge_ensemble_daily: { city_id: 'nyc', local_date: '2026-11-25', unit: 'C', fc_mean_c: 30 },
      model_tmax_range: { city_id: 'nyc', local_date: '2026-11-25', unit: 'F', tmax_max_c: 31, tmax_max_f: 88 },
    } as never);
    const record = readBoardRecord(cache, { edgeMin: 0.08 }, { cityId: 'nyc' });
    expect(record.trades.map((t) => [t.local_hour, t.bucket_label, t.side, t.price])).toEqual([
      [9, '54-55°F', 'NO', 0.6],
      [11, '52-53°F', 'NO', 0.65],
      [11, '54-55°F', 'YES', 0.45],
    ]);
  });

  it('trades each hour’s new edges, and sums them for the whole cache and for the History filter’s city', () => {
    const record = readBoardRecord(cache, { edgeMin: 0.08 }, { cityId: 'nyc' });
    expect(record.trades.map((t) => [t.local_hour, t.bucket_label, t.side, t.price, t.won, t.pnl])).toEqual([
      [9, '54-55°F', 'NO', 0.6, false, -10],
      [11, '52-53°F', 'NO', 0.65, true, 5.38],
      [11, '54-55°F', 'YES', 0.45, true, 12.22],
    ]);
    expect(record.trades.map((t) => t.edge)).toEqual([
      expect.closeTo(0.085783, 5),
      expect.closeTo(0.24056, 5),
      expect.closeTo(0.3287, 4),
    ]);
    // -10 + 5.38 + 12.22 = 7.60 on 30
    expect([record.all.all.n, record.all.all.wins, record.all.all.pnl, record.all.all.staked]).toEqual([3, 2, 7.6, 30]);
    expect(record.city?.summary.all).toEqual(record.all.all);
    // the 3 positions are on one city-day, which made all of the +7.60
    expect(record.all.spread).toEqual({
      positions: 3,
      cityDays: 1,
      largestDay: { city_id: 'nyc', local_date: '2026-11-24', pnl: 7.6, share: 1 },
    });
    expect(readBoardRecord(cache, { edgeMin: 0.08 }, { cityId: 'paris' }).city?.summary.all.n).toBe(0);
    // kept (kept-record.unit.test.ts): a second read costs the settled days' list (the lock, the city) and the kept
    // day, nothing more
    const known = new Map<string, RecordDay>();
    const first = readBoardRecord(cache, { edgeMin: 0.08 }, { known });
    const before = cache.readStats.rows;
    const again = readBoardRecord(cache, { edgeMin: 0.08 }, { known });
    expect(cache.readStats.rows - before).toBe(3);
    expect(again.trades).toEqual(first.trades);
    // another edge_min prices the kept days again: only the 0.3287 and 0.24056 edges reach 0.2
    expect(readBoardRecord(cache, { edgeMin: 0.2 }, { known }).trades.map((t) => t.local_hour)).toEqual([11, 11]);
    // the export's rows are the same trades (p, price and edge to 4 decimals), each with DESIGN 3's fields in order
    const rows = exportBoardRecord(cache, { edgeMin: 0.08 }, { cityId: 'nyc' });
    expect(rows.map((r) => [r.local_hour, r.bucket_label, r.side, r.pnl])).toEqual(
      record.trades.map((t) => [t.local_hour, t.bucket_label, t.side, t.pnl]),
    );
    expect(Object.keys(rows[0] ?? {})).toEqual([
      'city_id',
      'local_date',
      'local_hour',
      'venue',
      'bucket_slug',
      'bucket_label',
      'side',
      'price',
      'p',
      'edge',
      'settled_value',
      'won',
      'pnl',
    ]);
  });
});
