import { describe, expect, it } from 'vitest';
import { boardDay } from '../../src/board/board-day.js';
import { marketDay, NEW_YORK, PARIS, primary, quote } from './fixtures.js';

// Normal table: Φ(-2.7) = 0.003467, Φ(-1) = 0.158655, Φ(-0.9) = 0.184060, Φ(-0.5) = 0.308538, Φ(0.5) = 0.691462,
// Φ(0.9) = 0.815940, Φ(1) = 0.841345, Φ(1.5) = 0.933193, Φ(2) = 0.977250, Φ(2.5) = 0.993790.

/**
 * New York (fixtures.ts: °F, metar_c), N(12.5, 1) °C, METAR high so far 12 °C (53.6 °F, settles at 54): X is
 * conditioned on X >= 11.5, mass 1 - Φ(-1) = 0.841345. On the whole-°C lattice:
 *   51°F or below holds 10 °C and under (10 °C = 50.0; 11 °C = 51.8 -> 52): dead
 *   52-53°F holds 11 °C only: dead
 *   54-55°F holds 12 °C (53.6 -> 54) and 13 °C (55.4 -> 55): (Φ(1) - Φ(-1)) / 0.841345 = 0.682689 / 0.841345 = 0.811427
 *   56-57°F holds 14 °C (57.2 -> 57): (Φ(2) - Φ(1)) / 0.841345 = 0.135905 / 0.841345 = 0.161533
 *   58°F or higher holds 15 °C (59.0) and over: (1 - Φ(2)) / 0.841345 = 0.022750 / 0.841345 = 0.027040
 */
describe('a °F market priced on the whole-°C lattice (board/priced-day.ts)', () => {
  const day = boardDay(NEW_YORK);

  it('prices every bucket both venues list, lowest first, the unreadable one last with no p', () => {
    expect(day.buckets.map((b) => b.label)).toEqual([
      '51°F or below',
      '52-53°F',
      '54-55°F',
      '56-57°F',
      '58°F or higher',
      'Over 60 F',
    ]);
    const p = day.buckets.map((b) => b.p);
    expect(p.slice(0, 2)).toEqual([0, 0]);
    expect(p[2]).toBeCloseTo(0.811427, 5);
    expect(p[3]).toBeCloseTo(0.161533, 5);
    expect(p[4]).toBeCloseTo(0.02704, 5);
    expect(p[5]).toBeNull();
    expect(day.buckets.map((b) => b.dead)).toEqual([true, true, false, false, false, false]);
    // listed, not dropped: its quote kept, no bucket read, no edge
    expect(day.buckets[5]).toMatchObject({ bucket: null, listed: true, yes: null, no: null, best: null });
    expect(day.buckets[5]?.mktb?.yes_price).toBe(0.01);
  });

  it('takes each side on its better venue and the best edge of the day', () => {
    // 54-55°F: cost max(0.01, (0.70 + 0.32 - 1) / 2 = 0.01) = 0.01 on mkta, max(0.01, 0.01) = 0.01 on mktb
    //   YES mkta 0.811427 - 0.70 - 0.01 = +0.101427; mktb 0.811427 - 0.75 - 0.01 = +0.051427: mkta
    //   NO mkta 0.188573 - 0.32 - 0.01 = -0.141427; mktb 0.188573 - 0.27 - 0.01 = -0.091427: mktb
    const b54 = day.buckets[2];
    expect(b54?.yes).toMatchObject({ venue: 'mkta', side: 'YES', price: 0.7 });
    expect(b54?.yes?.edge).toBeCloseTo(0.101427, 5);
    expect(b54?.no).toMatchObject({ venue: 'mktb', side: 'NO', price: 0.27 });
    expect(b54?.no?.edge).toBeCloseTo(-0.091427, 5);
    expect(b54?.best?.side).toBe('YES');
    // 52-53°F dead: NO 1 - 0 - 0.97 - max(0.01, -0.005) = +0.02; 56-57°F YES 0.161533 - 0.10 - 0.01 = +0.051533;
    // 58+ (mktb) YES 0.027040 - 0.01 - 0.01 = +0.007040: the day's best is 54-55°F YES on mkta at 0.70
    expect(day.buckets[1]?.best?.edge).toBeCloseTo(0.02, 10);
    expect(day.buckets[3]?.best?.edge).toBeCloseTo(0.051533, 5);
    expect(day.buckets[4]?.best).toMatchObject({ venue: 'mktb', side: 'YES' });
    expect(day.best).toMatchObject({ venue: 'mkta', side: 'YES', price: 0.7 });
    expect(day.best?.bucket.label).toBe('54-55°F');
    expect(day.best?.edge).toBeCloseTo(0.101427, 5);
  });

  it('offers no edge on a venue whose snapshot predates what the board prices with', () => {
    // the fixture's high of 12 °C was read at 16:00Z and its snapshots taken at 16:55Z: both fresh (above)
    expect(day.venueBehind).toEqual({ mkta: null, mktb: null });
    expect(day.behind).toBeNull();
    // mkta's snapshot of 15:30Z was taken before the 16:00Z reading that set the high (it may still price 52-53°F,
    // which that reading killed): its prices stay, its edges go; the day's best is then mktb's alone
    const early = { ...NEW_YORK, mkta: NEW_YORK.mkta.map((q) => ({ ...q, snapshot_at: '2026-11-24T15:30:00Z' })) };
    const stale = boardDay(early);
    expect(stale.venueBehind).toEqual({ mkta: 'prices', mktb: null });
    expect(stale.behind).toBe('prices');
    expect(stale.buckets[2]?.mkta?.yes_price).toBe(0.7);
    // 54-55°F: YES only on mktb, 0.811427 - 0.75 - 0.01 = +0.051427; NO on mktb -0.091427 (above)
    expect(stale.buckets[2]?.yes).toMatchObject({ venue: 'mktb', price: 0.75 });
    expect(stale.buckets[2]?.yes?.edge).toBeCloseTo(0.051427, 5);
    // 52-53°F and 56-57°F are mkta's only: no edge at all
    expect(stale.buckets[1]?.best).toBeNull();
    expect(stale.buckets[3]?.best).toBeNull();
    // the best: 54-55°F YES on mktb (+0.051427) over 58°F or higher YES on mktb (+0.007040)
    expect(stale.best).toMatchObject({ venue: 'mktb', side: 'YES', price: 0.75 });
    // a desk's run newer than both snapshots (17:00Z) makes both stale: no edge on the row
    const run = {
      ...NEW_YORK,
      primary: { ...NEW_YORK.primary, fetched_at: '2026-11-24T17:00:00Z' },
    } as typeof NEW_YORK;
    expect(boardDay(run).venueBehind).toEqual({ mkta: 'prices', mktb: 'prices' });
    expect(boardDay(run).best).toBeNull();
  });

  it('offers no edge on a venue whose snapshot is newer than what the monitor holds of the METAR and the desk', () => {
    // DESIGN 4 "a price against a model of the same instant": both snapshots were taken at 16:55Z; the METAR reports
    // and the desk's runs are held up to 16:50Z only (a report of 16:52Z may have moved the venues already)
    const ahead = boardDay({ ...NEW_YORK, modelKnownUntilMs: Date.parse('2026-11-24T16:50:00Z') });
    expect(ahead.venueBehind).toEqual({ mkta: 'model', mktb: 'model' });
    expect(ahead.behind).toBe('model');
    expect(ahead.best).toBeNull();
    expect(ahead.buckets.every((b) => b.yes === null && b.no === null)).toBe(true);
    // the prices and the p stay on the page: 54-55°F at 0.70 on mkta, p 0.811427
    expect(ahead.buckets[2]?.mkta?.yes_price).toBe(0.7);
    expect(ahead.buckets[2]?.p).toBeCloseTo(0.811427, 5);
    // held up to 16:55Z exactly: the snapshot's own instant is known, and it compares (the best as before: +0.101427)
    const level = boardDay({ ...NEW_YORK, modelKnownUntilMs: Date.parse('2026-11-24T16:55:00Z') });
    expect(level.venueBehind).toEqual({ mkta: null, mktb: null });
    expect(level.best?.edge).toBeCloseTo(0.101427, 5);
    // mkta snapshotted at 16:45Z compares; mktb's 16:55Z does not: 54-55°F YES on mkta +0.101427, NO only from mkta,
    // 0.188573 - 0.32 - 0.01 = -0.141427
    const split = boardDay({
      ...NEW_YORK,
      mkta: NEW_YORK.mkta.map((q) => ({ ...q, snapshot_at: '2026-11-24T16:45:00Z' })),
      modelKnownUntilMs: Date.parse('2026-11-24T16:50:00Z'),
    });
    expect(split.venueBehind).toEqual({ mkta: null, mktb: 'model' });
    expect(split.best).toMatchObject({ venue: 'mkta', side: 'YES', price: 0.7 });
    expect(split.buckets[2]?.no).toMatchObject({ venue: 'mkta', price: 0.32 });
    expect(split.buckets[2]?.no?.edge).toBeCloseTo(-0.141427, 5);
    // mkta behind the high (read at 16:00Z, mkta snapshotted at 15:30Z) and mktb ahead of the model: the model is
    // what the board waits for first
    const both = boardDay({
      ...NEW_YORK,
      mkta: NEW_YORK.mkta.map((q) => ({ ...q, snapshot_at: '2026-11-24T15:30:00Z' })),
      modelKnownUntilMs: Date.parse('2026-11-24T16:50:00Z'),
    });
    expect(both.venueBehind).toEqual({ mkta: 'prices', mktb: 'model' });
    expect(both.behind).toBe('model');
    expect(both.best).toBeNull();
  });

  it('says how far the running high must rise before a higher bucket can win (next)', () => {
    // 12 °C sits in 54-55°F, which also holds 13 °C; 14 °C = 57.2 °F is the first to leave it: 57.2 - 53.6 = 3.6
    expect(day.runningHighC).toBe(12);
    expect(day.runningHigh).toBeCloseTo(53.6, 10);
    expect(day.next).toBeCloseTo(3.6, 10);
    // 13 °C = 55.4 °F in the same bucket: 57.2 - 55.4 = 1.8
    expect(boardDay({ ...NEW_YORK, ...withHigh(13) }).next).toBeCloseTo(1.8, 10);
    // in the top tail there is no higher bucket; before the first reading there is no running high
    expect(boardDay({ ...NEW_YORK, ...withHigh(15) }).next).toBeNull();
    expect(boardDay({ ...NEW_YORK, ...withHigh(null) }).next).toBeNull();
    expect(day.check).toBe(false);
  });
});

/** Each bucket's p against the hand-worked figure, to the table's five decimals. */
function expectPs(buckets: readonly { p: number | null }[], ps: number[]) {
  expect(buckets).toHaveLength(ps.length);
  buckets.forEach((b, i) => {
    expect(b.p).toBeCloseTo(ps[i] as number, 5);
  });
}

/** The METAR part of a market day with another high (whole °C; null: no reading). */
function withHigh(c: number | null) {
  return { metar: marketDay({ highC: c }).metar };
}

describe('a °C market (Paris)', () => {
  it('prices one degree a bucket, conditioned on the running high', () => {
    // N(18, 1), METAR high 20 °C: X >= 19.5 (z >= 1.5), mass 1 - Φ(1.5) = 0.066807
    // 20°C: (Φ(2.5) - Φ(1.5)) / 0.066807 = 0.060597 / 0.066807 = 0.907051; 21°C or higher: 0.006210 / 0.066807
    // = 0.092949; 19°C dead. next: 21 °C leaves 20°C: 21 - 20 = 1
    const day = boardDay(
      marketDay({
        city: PARIS,
        forecast: primary(18, 1),
        highC: 20,
        mkta: [quote('19°C', 0.01, 0.99), quote('20°C', 0.85, 0.17), quote('21°C or higher', 0.1, 0.92)],
      }),
    );
    expect(day.unit).toBe('C');
    expectPs(day.buckets, [0, 0.907051, 0.092949]);
    expect(day.buckets[0]?.dead).toBe(true);
    expect(day.next).toBe(1);
    expect(day.runningHigh).toBe(20);
    // 20°C YES: cost max(0.01, 0.01) = 0.01: 0.907051 - 0.85 - 0.01 = +0.047051, the best; 21+ NO: 0.907051 - 0.92
    // - 0.01 = -0.022949; 19°C NO: 1 - 0.99 - 0.01 = 0
    expect(day.best?.bucket.label).toBe('20°C');
    expect(day.best?.edge).toBeCloseTo(0.047051, 5);
  });

  it('lays the buckets out around the forecast before any venue lists them', () => {
    // N(18, 1), no reading: 14°C or below .. 22°C or higher around 18; 18°C: Φ(0.5) - Φ(-0.5) = 0.382925
    const day = boardDay(marketDay({ city: PARIS, forecast: primary(18, 1) }));
    expect(day.buckets.map((b) => b.label)).toEqual([
      '13°C or below',
      '14°C',
      '15°C',
      '16°C',
      '17°C',
      '18°C',
      '19°C',
      '20°C',
      '21°C',
      '22°C',
      '23°C or higher',
    ]);
    expect(day.buckets.every((b) => !b.listed && b.best === null)).toBe(true);
    expect(day.buckets[5]?.p).toBeCloseTo(0.382925, 5);
    expect(day.best).toBeNull();
  });
});

describe('whole_f (config settlement): a native whole-°F high', () => {
  // N(10, 5/9) °C is X_F ~ N(50, 1) °F; METAR high 10 °C = 50.0 °F, settling at 50
  const quotes = [quote('48-49°F', 0.01, 0.99), quote('50-51°F', 0.5, 0.52), quote('52°F or higher', 0.4, 0.62)];
  const day = (rule: 'metar_c' | 'whole_f') =>
    boardDay(marketDay({ rule, forecast: primary(10, 5 / 9), highC: 10, mkta: quotes }));

  it('reaches every whole °F: 50-51°F is P(49.5 <= X_F < 51.5 | X_F >= 49.5), next the next whole °F', () => {
    // mass 1 - Φ(-0.5) = 0.691462; 50-51: (Φ(1.5) - Φ(-0.5)) / 0.691462 = 0.624655 / 0.691462 = 0.903383;
    // 52+: (1 - Φ(1.5)) / 0.691462 = 0.066807 / 0.691462 = 0.096617. next: 52 - 50 = 2
    const whole = day('whole_f');
    expectPs(whole.buckets, [0, 0.903383, 0.096617]);
    expect(whole.next).toBe(2);
  });

  it('differs from metar_c on the same day, where 50-51°F holds 10 °C only', () => {
    // metar_c: X >= 9.5 (z >= -0.9), mass 0.815940; 50-51 holds 10 °C: (Φ(0.9) - Φ(-0.9)) / 0.815940 = 0.631880 /
    // 0.815940 = 0.774420; 52+ holds 11 °C and over: (1 - Φ(0.9)) / 0.815940 = 0.225580. next: 11 °C = 51.8 °F
    // leaves it: 51.8 - 50.0 = 1.8
    const metar = day('metar_c');
    expectPs(metar.buckets, [0, 0.77442, 0.22558]);
    expect(metar.next).toBeCloseTo(1.8, 10);
  });
});

describe('bad input', () => {
  it('an unusable forecast (missing, zero or negative sigma, no mean) prices nothing: p, edges and best null', () => {
    for (const forecast of [
      null,
      primary(12.5, 0),
      primary(12.5, -1),
      primary(12.5, undefined),
      primary(undefined, 1),
    ]) {
      const day = boardDay({ ...NEW_YORK, primary: forecast });
      expect(day.forecast).toBeNull();
      expect(day.buckets.map((b) => b.p)).toEqual([null, null, null, null, null, null]);
      expect(day.buckets.every((b) => b.yes === null && b.no === null && b.best === null)).toBe(true);
      expect(day.best).toBeNull();
      // what the running high alone says stays: dead buckets and next
      expect(day.buckets.map((b) => b.dead)).toEqual([true, true, false, false, false, false]);
      expect(day.next).toBeCloseTo(3.6, 10);
      expect(day.check).toBe(false);
    }
  });

  it('a running high far outside the forecast: every bucket dead but the tail that holds it, CHECK, no best edge', () => {
    // N(12.5, 1) °C and a METAR high of 24 °C (75.2 °F): X >= 23.5 is z >= 11, no mass (DESIGN 4: the day settles
    // where it is). 58°F or higher holds 24 °C: p 1, YES 1 - 0.01 - 0.01 = +0.98 on mktb; every other bucket dead
    const day = boardDay({ ...NEW_YORK, ...withHigh(24) });
    expect(day.check).toBe(true);
    expect(day.buckets.map((b) => [b.p, b.dead])).toEqual([
      [0, true],
      [0, true],
      [0, true],
      [0, true],
      [1, false],
      [null, false],
    ]);
    expect(day.buckets[4]?.best?.edge).toBeCloseTo(0.98, 10);
    expect(day.best).toBeNull();
  });
});
