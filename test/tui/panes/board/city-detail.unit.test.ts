import { afterAll, describe, expect, it } from 'vitest';
import { type CityDetail, cityDetail, readCityDay } from '../../../../src/board/city-detail.js';
import { edgeBandRecord } from '../../../../src/board/edge-band-record.js';
import { readBoard } from '../../../../src/board/read-board.js';
import { cityDetailLines, hoursFrom } from '../../../../src/tui/panes/board/detail/city-detail-lines.js';
import type { Line } from '../../../../src/tui/theme.js';
import { DETAIL_DAY, DETAIL_LINES, DETAIL_NOW, detailDay } from '../../../board/city-detail-fixture.js';
import { memoryCaches, NYC } from '../../../helpers/cache-builder.js';

const caches = memoryCaches();
afterAll(() => caches.close());

/** The detail of New York's board row at 15:00 local, read as the board's store reads it (its record beside it). */
function detailOf(atMs = DETAIL_NOW, asOf?: number): CityDetail {
  const { cache } = detailDay(caches.open());
  const [row] = readBoard(cache, [NYC], atMs, {}, new Map(), asOf === undefined ? {} : { date: DETAIL_DAY, asOf });
  if (!row) throw new Error('no row');
  const best = row.best;
  const withRecord = best
    ? { ...row, bestRecord: edgeBandRecord(cache, { edgeMin: 0.05 }, best.edge, best.venue).text }
    : row;
  return cityDetail(withRecord, readCityDay(cache, NYC, row.date, atMs, asOf), atMs);
}

const text = (l: Line) =>
  l
    .map((s) => s.text)
    .join('')
    .trimEnd();

/*
 * By hand (test/board/city-detail-fixture.ts). New York's market is °F and settles on the whole-°C METAR high
 * converted (DESIGN 4): 65°F or below holds 18 °C and under, 66-67°F 19 °C (66.2), 68-69°F 20 °C (68.0), 70-71°F
 * 21 °C (69.8), 72°F or higher 22 °C (71.6) and over.
 * The running high 20 °C: X ~ N(21, 1) conditioned on X >= 19.5; P(X >= 19.5) = Phi(1.5) = 0.933193.
 *   68-69°F: (Phi(-0.5) - Phi(-1.5)) / 0.933193 = (0.308538 - 0.066807) / 0.933193 = 0.259036
 *   70-71°F: (Phi(0.5) - Phi(-0.5)) / 0.933193 = 0.382925 / 0.933193 = 0.410338 (the favourite)
 *   72°F or higher: (1 - Phi(0.5)) / 0.933193 = 0.308538 / 0.933193 = 0.330627
 * next (DESIGN 4): 21 °C = 69.8 °F leaves 68-69°F: 69.8 - 68.0 = +1.8; p it settles above 68-69°F = 0.410338 +
 *   0.330627 = 0.740965 -> 0.741
 * METAR now: 20 °C at 19:30Z = 68.0 °F at 14:30 (UTC-5); the last three 20, 19, 20 °C = 68.0, 66.2, 68.0 °F; the high
 *   68.0 °F first reached at 18:00Z = 13:00
 * peak: the lock's peak hour 14 = 19:00Z, 1.0 h before 20:00Z; the peak phase to 16:00 (peak + 2 h) = 21:00Z, in
 *   1.0 h; the lock settles at the local midnight after the day, 00:00 = 2026-11-25T05:00Z, in 9.0 h
 * prices: bid = 1 - NO, ask = YES. 70-71°F: mkta 1 - 0.66 = 0.34 / 0.36, mktb 1 - 0.57 = 0.43 / 0.45; 72°F or higher:
 *   mkta 1 - 0.72 = 0.28 / 0.30, mktb 1 - 0.77 = 0.23 / 0.25. mktb's snapshot (19:20Z) is older than the desk's run
 *   (19:35Z): stale prices
 * positions, marked at mkta: no24 NO 72°F or higher 20 x 0.72 - 14.00 = +0.40; lock YES 70-71°F 40 x 0.36 - 10.00
 *   (40 x 0.25) = +4.40; staked 24.00, P&L +4.80
 * best edge, mkta only (mktb stale), cost max(0.01, overround / 2) = 0.01: 70-71°F YES 0.410338 - 0.36 - 0.01 =
 *   +0.040338 (+4.0); 72°F or higher YES 0.330627 - 0.30 - 0.01 = 0.0206; 68-69°F NO 0.740964 - 0.72 - 0.01 = 0.011.
 *   Its band min-0.10 on mkta: no settled day in the cache, so `record: n < 10`
 */
describe("the selected city's detail", () => {
  it('works every field out of the board row and the city-day read as of its instant', () => {
    const d = detailOf();
    expect(d).toMatchObject({
      name: 'New York City',
      date: DETAIL_DAY,
      tomorrow: false,
      unit: 'F',
      settled: null,
      metarNow: { value: 68, at: '14:30' },
      trend: [68, 66.2, 68],
      high: { value: 68, at: '13:00' },
      peak: {
        hour: '14:00',
        ms: Date.parse('2026-11-24T19:00:00Z'),
        passedMs: Date.parse('2026-11-24T21:00:00Z'),
      },
      peakStartsMs: Date.parse('2026-11-24T15:00:00Z'),
      lock: { label: '70-71°F', lockedAt: '14:00', settlesMs: Date.parse('2026-11-25T05:00:00Z'), resolved: false },
      next: { edge: 69.8, rise: 1.8, from: '68-69°F', p: 0.741 },
      positions: [
        { what: 'no24 NO 72°F or higher', stake: 14, pnl: 0.4 },
        { what: 'lock YES 70-71°F', stake: 10, pnl: 4.4 },
      ],
      staked: 24,
      pnl: 4.8,
      bestRecord: 'min-0.10 mkta record: n < 10',
    });
    expect(d.prices.map((b) => ({ ...b, p: b.p === null ? null : Number(b.p.toFixed(4)) }))).toEqual([
      {
        label: '70-71°F',
        favourite: true,
        held: true,
        p: 0.4103,
        venues: { mkta: { bid: 0.34, ask: 0.36, behind: null }, mktb: { bid: 0.43, ask: 0.45, behind: 'prices' } },
      },
      {
        label: '72°F or higher',
        favourite: false,
        held: true,
        p: 0.3306,
        venues: { mkta: { bid: 0.28, ask: 0.3, behind: null }, mktb: { bid: 0.23, ask: 0.25, behind: 'prices' } },
      },
    ]);
    expect(d.best && { edge: Number(d.best.edge.toFixed(4)), side: d.best.side, venue: d.best.venue }).toEqual({
      edge: 0.0403,
      side: 'YES',
      venue: 'mkta',
    });
  });

  it('as of an instant, reads the city-day as it stood then (DESIGN 4 "the board as of an instant")', () => {
    // 18:30Z = 13:30 local: three readings (19, 20 °C), no lock yet (locked 19:00Z), mktb's 19:20Z and mkta's 19:50Z
    // snapshots not taken: no prices, no best edge; the no24 record entered at 00:01 is open, the lock not yet
    const at = Date.parse('2026-11-24T18:30:00Z');
    const d = detailOf(at, at);
    expect(d.metarNow).toEqual({ value: 68, at: '13:00' });
    expect(d.trend).toEqual([66.2, 68]);
    expect(d.high).toEqual({ value: 68, at: '13:00' });
    expect(d.peak).toBeNull();
    expect(d.lock).toBeNull();
    expect(d.positions.map((p) => p.what)).toEqual(['no24 NO 72°F or higher']);
    expect(d.best).toBeNull();
    // no lock at 13:30 (after 10:00): the peak hour is not known yet
    expect(text(cityDetailLines(d, 120, 10)[3] as Line)).toBe(
      '  peak hour not known: no lock yet (the service locks at the peak hour)',
    );
  });

  it('lays the detail out in lines, and drops the least important first as the rows run out', () => {
    const d = detailOf();
    const all = cityDetailLines(d, 120, 20).map(text);
    expect(all).toEqual([`── New York City · ${DETAIL_DAY} ${'─'.repeat(120 - 30)}`, ...DETAIL_LINES]);
    // 10 lines in 6 rows: the two positions go (8), then the held bucket's prices (7), then the peak and lock (6)
    expect(cityDetailLines(d, 120, 6).map(text)).toEqual([all[0], all[1], all[2], all[4], all[6], all[9]]);
    // in 3, the title, the METAR and the next edge
    expect(cityDetailLines(d, 120, 3).map(text)).toEqual([all[0], all[1], all[2]]);
  });
});

describe('the hours to an instant', () => {
  it('counts minutes under an hour, tenths of an hour from one', () => {
    const at = Date.UTC(2026, 10, 24, 21, 58);
    // 22:00 is 2 minutes on; 21:28 30 minutes back; 22:58 60 minutes on = 1.0 h; 19:28 150 minutes back = 2.5 h
    expect(hoursFrom(at, Date.UTC(2026, 10, 24, 22, 0))).toBe('in 2 min');
    expect(hoursFrom(at, Date.UTC(2026, 10, 24, 21, 28))).toBe('30 min ago');
    expect(hoursFrom(at, Date.UTC(2026, 10, 24, 22, 58))).toBe('in 1.0 h');
    expect(hoursFrom(at, Date.UTC(2026, 10, 24, 19, 28))).toBe('2.5 h ago');
  });
});
