import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Cache,
  type DaySeries,
  type DaySeriesAsk,
  MARKET_READ_TOPICS,
  openCache,
} from '../../../src/cache/index.js';
import { localDay } from '../../../src/domain/city-time.js';
import { HandCache, historicalRow, NYC, PARIS } from '../../helpers/cache-builder.js';
import { topicsRead } from '../../helpers/recorded-tables.js';

/**
 * The day's series for sparklines (cache/market/day-series.ts) on a New York day written by hand (2026-11-24 runs
 * from 05:00Z to 05:00Z; ids follow the instants, as the service's do):
 *
 * - the desk polled at 07:30Z N(12.5, 1) °C = 54.5 ± 1.8 °F, a `forecast_history` run at 08:20Z 55.4 ± 1.44 °F, a poll
 *   at 08:50Z N(13.5, 0.7) °C = 56.3 ± 1.26 °F; a run of the next day at 08:35Z (mu 68 °F), not this day's;
 * - mkta 54-55°F / 56-57°F: 08:05Z 0.40 / 0.20, 08:14Z 0.42 / 0.21, 08:40Z 0.45 / 0.25, 09:00Z 0.50 / 0.30, 09:05Z
 *   0.90 / 0.90; the next day's market at 08:44Z (0.90) and Paris at 08:59Z (0.99), neither this day's;
 * - mktb 54-55°F only: 08:10Z 0.41, 08:29Z 0.43, 08:59Z 0.47.
 */
const DATE = '2026-11-24';
const DAY = localDay(DATE, NYC.tz);
const at = (hhmm: string, date = DATE) => Date.parse(`${date}T${hhmm}:00Z`);
const iso = (hhmm: string) => `${DATE}T${hhmm}:00Z`;

let cache: Cache;
beforeAll(() => {
  const h = new HandCache(openCache(':memory:')).cities(NYC, PARIS);
  const run = (hhmm: string, date: string, maxF: number, sigmaF: number) => {
    const [id] = h.ids(1);
    const row = historicalRow('forecast_history', id as number, 'nyc', iso(hhmm));
    h.historical('forecast_history', [{ ...row, local_date: date, predicted_max_f: maxF, sigma_f: sigmaF } as never]);
  };
  const mkta = (hhmm: string, a: number, b: number) =>
    h.quotes('mkta', NYC, DATE, iso(hhmm), [
      ['54-55°F', a, 1 - a],
      ['56-57°F', b, 1 - b],
    ]);
  const mktb = (hhmm: string, a: number) => h.quotes('mktb', NYC, DATE, iso(hhmm), [['54-55°F', a, 1 - a]]);
  h.forecast(NYC, DATE, { mu_c: 12.5, sigma_c: 1, at: iso('07:30') });
  mkta('08:05', 0.4, 0.2);
  mktb('08:10', 0.41);
  mkta('08:14', 0.42, 0.21);
  run('08:20', DATE, 55.4, 1.44);
  mktb('08:29', 0.43);
  run('08:35', '2026-11-25', 68, 2);
  mkta('08:40', 0.45, 0.25);
  h.quotes('mkta', NYC, '2026-11-25', iso('08:44'), [['54-55°F', 0.9, 0.1]]);
  h.forecast(NYC, DATE, { mu_c: 13.5, sigma_c: 0.7, at: iso('08:50') });
  mktb('08:59', 0.47);
  h.quotes('mkta', PARIS, DATE, iso('08:59'), [['54-55°F', 0.99, 0.01]]);
  mkta('09:00', 0.5, 0.3);
  mkta('09:05', 0.9, 0.9);
  cache = h.cache;
});
afterAll(() => cache.close());

/** Runs the sliced read to its end, counting its steps. */
function series(ask: DaySeriesAsk): DaySeries & { steps: number } {
  const read = cache.market.daySeries('nyc', DAY, ask);
  let steps = 0;
  for (;;) {
    const step = read.next();
    if (step.done) return { ...step.value, steps };
    steps++;
  }
}
const QUARTER = 15 * 60_000;

describe('the day’s series (cache.market.daySeries)', () => {
  it('one column a quarter hour: the newest snapshot taken in each, a gap where a venue took none', () => {
    const s = series({ atMs: at('09:00'), unit: 'F', columns: 4, stepMs: QUARTER });
    // 09:00Z is 16 quarters after New York's midnight (05:00Z): 4 columns ending 08:15, 08:30, 08:45, 09:00
    expect([s.fromMs, s.toMs, s.stepMs, s.columns]).toEqual([at('08:00'), at('09:00'), QUARTER, 4]);
    expect(s.buckets).toEqual([
      // 08:14 is the newer of 08:05 and 08:14; none in (08:15, 08:30]; 08:40; 09:00 (09:05 is after the instant)
      { slug: '54-55f', label: '54-55°F', mkta: [0.42, null, 0.45, 0.5], mktb: [0.41, 0.43, null, 0.47] },
      { slug: '56-57f', label: '56-57°F', mkta: [0.21, null, 0.25, 0.3], mktb: [null, null, null, null] },
    ]);
    // the version in force at each end: the 07:30 poll, the 08:20 run (twice), the 08:50 poll; never the next day's
    expect(s.mu).toEqual([54.5, 55.4, 55.4, 56.3]);
    expect(s.sigma).toEqual([1.8, 1.44, 1.44, 1.26]);
    // a step a column and venue: a pane runs it in slices
    expect(s.steps).toBe(8);
  });

  it('°C: the desk’s own °C aliases (the history run’s are 10 °C and 1: historicalRow’s)', () => {
    const s = series({ atMs: at('09:00'), unit: 'C', columns: 4, stepMs: QUARTER });
    expect([s.mu, s.sigma]).toEqual([
      [12.5, 10, 10, 13.5],
      [1, 1, 1, 0.7],
    ]);
  });

  it('the current column runs to the instant and no further; the grid stays on whole steps', () => {
    // as of 08:50Z the grid still ends at 09:00 (the first whole quarter at or after it), its last column (08:45,
    // 08:50]: mkta took none in it (09:00 is after the instant), nor mktb (08:59); the 08:50 poll is in force
    const now = series({ atMs: at('08:50'), unit: 'F', columns: 4, stepMs: QUARTER });
    expect([now.fromMs, now.toMs]).toEqual([at('08:00'), at('09:00')]);
    expect(now.buckets[0]?.mkta).toEqual([0.42, null, 0.45, null]);
    expect(now.buckets[0]?.mktb).toEqual([0.41, 0.43, null, null]);
    expect(now.mu).toEqual([54.5, 55.4, 55.4, 56.3]);
    // as of 08:45Z: columns ending 08:00, 08:15, 08:30, 08:45; mkta 08:14, 08:40 (the next day's 08:44 is not this
    // day's); mktb 08:10, 08:29
    const earlier = series({ atMs: at('08:45'), unit: 'F', columns: 4, stepMs: QUARTER });
    expect([earlier.fromMs, earlier.toMs]).toEqual([at('07:45'), at('08:45')]);
    expect(earlier.buckets[0]?.mkta).toEqual([null, 0.42, null, 0.45]);
    expect(earlier.buckets[0]?.mktb).toEqual([null, 0.41, 0.43, null]);
    expect(earlier.mu).toEqual([54.5, 54.5, 55.4, 55.4]);
  });

  it('by default 32 quarters up to the instant; once the day is over, its whole day at 45 minutes a column', () => {
    const s = series({ atMs: at('09:00'), unit: 'F' });
    expect([s.fromMs, s.toMs, s.columns, s.stepMs]).toEqual([at('01:00'), at('09:00'), 32, QUARTER]);
    expect(s.buckets[0]?.mkta.slice(-4)).toEqual([0.42, null, 0.45, 0.5]);
    // the next morning: (05:00Z, 05:00Z the next day] in 32 columns of 45 minutes ending 05:45, 06:30, 07:15, 08:00,
    // 08:45, 09:30, ...: 08:40 in (08:00, 08:45], 09:05 in (08:45, 09:30] (the instant is past it now)
    const day = series({ atMs: at('06:00', '2026-11-25'), unit: 'F', stepMs: 45 * 60_000 });
    expect([day.fromMs, day.toMs]).toEqual([DAY.startMs, DAY.endMs]);
    const gap = (n: number) => Array.from({ length: n }, () => null);
    expect(day.buckets[0]?.mkta).toEqual([...gap(4), 0.45, 0.9, ...gap(26)]);
    expect(day.buckets[0]?.mktb).toEqual([...gap(4), 0.43, 0.47, ...gap(26)]);
    expect(day.mu).toEqual([...gap(3), 54.5, 55.4, ...Array.from({ length: 27 }, () => 56.3)]);
  });

  it('before the day begins: the grid runs on from its midnight backwards', () => {
    // 04:00Z is 23:00 the evening before in New York: the grid's last end is 04:00Z, 8 hours of quarters before it
    const early = series({ atMs: at('04:00'), unit: 'F' });
    expect([early.fromMs, early.toMs]).toEqual([at('20:00', '2026-11-23'), at('04:00')]);
    expect(early.buckets).toEqual([]);
    expect(early.mu.every((v) => v === null)).toBe(true);
  });

  it('reads what its topics say, and a handful of statements a column, not a walk of the day', () => {
    const read = () => series({ atMs: at('09:00'), unit: 'F', columns: 4, stepMs: QUARTER });
    expect(topicsRead(read).topics.sort()).toEqual([...MARKET_READ_TOPICS.daySeries].sort());
    const before = cache.readStats.queries;
    read();
    // per venue and column at most two probes and a page here (a day this small is one page), then the desk's two reads
    expect(cache.readStats.queries - before).toBeLessThanOrEqual(2 * 4 * 3 + 2);
  });
});
