import { describe, expect, it } from 'vitest';
import { calibrationSummary, type SettledDay } from '../../src/domain/calibration-summary.js';

const quotes = (labels: string[], prices: number[]) =>
  labels.map((bucket_label, i) => ({ bucket_slug: null, bucket_label, yes_price: prices[i] ?? null }));
const C = ['19°C or below', '20°C', '21°C', '22°C or higher'];
// listed out of order: the ladder is read lowest first
const C_SHUFFLED = ['21°C', '19°C or below', '22°C or higher', '20°C'];

/** Berlin, two settled days scored on mkta; mktb quoted one day, in the wrong unit. */
const DAYS: SettledDay[] = [
  {
    city_id: 'berlin',
    local_date: '2026-11-01',
    unit: 'C',
    settled: 21,
    forecast: { muC: 20.5, sigmaC: 1 },
    readings: [
      { hour: 0, value: 15 },
      { hour: 12, value: 20.6 },
      { hour: 14, value: 21.2 },
    ],
    noonQuotes: { mkta: quotes(C_SHUFFLED, [0.5, 0.05, 0.25, 0.3]), mktb: quotes(['68°F or below'], [1]) },
  },
  {
    city_id: 'berlin',
    local_date: '2026-11-02',
    unit: 'C',
    settled: 23,
    forecast: { muC: 20.5, sigmaC: 1 },
    readings: [{ hour: 13, value: 23 }],
    noonQuotes: { mkta: quotes(C, [0.1, 0.4, 0.4, 0.1]) },
  },
  {
    // settled, but no forecast was cached: counted in the hours, not scored at noon
    city_id: 'amsterdam',
    local_date: '2026-11-02',
    unit: 'C',
    settled: 9,
    forecast: null,
    readings: [{ hour: 3, value: 8.6 }],
    noonQuotes: { mkta: quotes(C, [0.1, 0.4, 0.4, 0.1]) },
  },
];

describe('calibration of a small fixed history', () => {
  it('scores each city against each venue it was quoted on, and all cities together', () => {
    const s = calibrationSummary(DAYS, ['mkta', 'mktb']);
    expect(s.cities.map((c) => [c.city_id, c.settledDays])).toEqual([
      ['amsterdam', 1],
      ['berlin', 2],
    ]);
    const [amsterdam, berlin] = s.cities;
    expect(amsterdam?.venues).toEqual([]);
    // berlin's two days are the two of calibration.unit.test.ts (same ladder, prices, forecast, highs):
    // desk Brier (0.201372 + 0.966065) / 2 = 0.583718, log loss (0.381715 + 1.841022) / 2 = 1.111368
    // venue Brier (0.425620 + 1.14) / 2 = 0.782810, log loss (0.788457 + 2.302585) / 2 = 1.545521
    // mktb: one quote in °F on a °C market, never scored
    expect(berlin?.venues.map((v) => v.venue)).toEqual(['mkta']);
    const mkta = berlin?.venues[0];
    expect(mkta?.days).toBe(2);
    expect(mkta?.desk.brier).toBeCloseTo(0.583718, 5);
    expect(mkta?.desk.logLoss).toBeCloseTo(1.111368, 5);
    expect(mkta?.prices.brier).toBeCloseTo(0.78281, 5);
    expect(mkta?.prices.logLoss).toBeCloseTo(1.545521, 5);
    expect(mkta?.desk.favouriteHit).toBe(0.5);
    // all cities: the same two scored days
    expect(s.all.settledDays).toBe(3);
    expect(s.all.venues[0]?.days).toBe(2);
    expect(s.all.venues[0]?.desk.brier).toBeCloseTo(0.583718, 5);
  });

  it('counts by hour the days whose running high already settles at the day’s value', () => {
    const s = calibrationSummary(DAYS, ['mkta']);
    const [amsterdam, berlin] = s.cities;
    // berlin 1: 20.6 at 12:00 settles at 21 (hit from 12:00); berlin 2: 23 at 13:00 (hit from 13:00)
    expect(berlin?.byHour).toEqual({ days: 2, hits: [...Array(12).fill(0), 1, ...Array(11).fill(2)] });
    // amsterdam: 8.6 at 03:00 settles at 9 (hit from 03:00)
    expect(amsterdam?.byHour).toEqual({ days: 1, hits: [0, 0, 0, ...Array(21).fill(1)] });
    expect(s.all.byHour.hits.slice(0, 4)).toEqual([0, 0, 0, 1]);
    expect(s.all.byHour.hits.slice(11, 14)).toEqual([1, 2, 3]);
  });

  it('prices each city by its settlement rule (config `settlement`): metar_c unless the config says whole_f', () => {
    // New York, N(10, 5/9) °C (N(50, 1) °F), settled at 50, no reading; the venue 0.1 0.3 0.5 0.1
    // metar_c: 47- holds 8 °C and under, P(X < 8.5) = Phi(-2.7) = 0.003467; 48-49 (9 °C) Phi(-0.9) - Phi(-2.7)
    //   = 0.180593; 50-51 (10 °C) Phi(0.9) - Phi(-0.9) = 0.631880; 52+ 1 - Phi(0.9) = 0.184060.
    //   Brier 0.003467^2 + 0.180593^2 + 0.368120^2 + 0.184060^2 = 0.202017; log loss -ln 0.631880 = 0.459056
    // whole_f: every °F reachable, X_F ~ N(50, 1): Phi(-2.5) = 0.006210, Phi(-0.5) - Phi(-2.5) = 0.302328,
    //   Phi(1.5) - Phi(-0.5) = 0.624655, 1 - Phi(1.5) = 0.066807.
    //   Brier 0.006210^2 + 0.302328^2 + 0.375345^2 + 0.066807^2 = 0.236788; log loss -ln 0.624655 = 0.470555
    const F = ['47°F or below', '48-49°F', '50-51°F', '52°F or higher'];
    const nyc: SettledDay = {
      city_id: 'nyc',
      local_date: '2026-11-01',
      unit: 'F',
      settled: 50,
      forecast: { muC: 10, sigmaC: 5 / 9 },
      readings: [],
      noonQuotes: { mkta: quotes(F, [0.1, 0.3, 0.5, 0.1]) },
    };
    const metar = calibrationSummary([nyc], ['mkta']).cities[0]?.venues[0];
    expect(metar?.desk.brier).toBeCloseTo(0.202017, 5);
    expect(metar?.desk.logLoss).toBeCloseTo(0.459056, 5);
    const whole = calibrationSummary([nyc], ['mkta'], { nyc: 'whole_f' }).cities[0]?.venues[0];
    expect(whole?.desk.brier).toBeCloseTo(0.236788, 5);
    expect(whole?.desk.logLoss).toBeCloseTo(0.470555, 5);
    // another city named in the config changes nothing here
    expect(calibrationSummary([nyc], ['mkta'], { chicago: 'whole_f' }).cities[0]?.venues[0]).toEqual(metar);
  });
});
