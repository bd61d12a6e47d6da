import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Cache, openCache, type RecordDay } from '../../../src/cache/index.js';
import { at, DAY, fillAsOfDay } from '../as-of-day.js';

/**
 * What the board's record reads of a settled day: the hand-built New York day of as-of-day.ts (its comment gives
 * every row). Its lock resolved at 13 °C, so it settled at 55 °F (55.4 rounded). 09:00 to 16:00 local are 14:00Z to
 * 21:00Z.
 */
let cache: Cache;
beforeEach(() => {
  cache = openCache(':memory:');
  fillAsOfDay(cache);
});
afterEach(() => cache.close());

describe('the board’s record’s reads of a settled day', () => {
  it('reads the board as of each whole hour: the desk’s run, the running high, each venue’s snapshot of the half hour', () => {
    const [day, ...others] = cache.history.boardRecordDays({});
    expect(others).toEqual([]);
    expect([day?.city_id, day?.local_date, day?.unit, day?.settled]).toEqual(['nyc', DAY, 'F', 55]);
    const hours = day?.hours.map((h) => ({
      hour: h.hour,
      at: new Date(h.atMs).toISOString().slice(11, 16),
      desk: h.desk && [h.desk.predicted_max_c, h.desk.sigma_c],
      high: h.high,
      mkta: h.quotes.mkta.map((q) => q.yes_price),
      mktb: h.quotes.mktb.length,
    }));
    expect(hours).toEqual([
      // 14:00Z: the 13:05Z poll (mu 11; the history's row of that run, mu 99, loses the tie); 5 and 9 °C so far, the
      // high since the 14:00Z reading; the 14:00Z snapshot
      { hour: 9, at: '14:00', desk: [11, 1], high: { f: 48.2, c: 9, since: at('14:00') }, mkta: [0.3, 0.4], mktb: 0 },
      // 15:00Z: the 14:05Z run from history; no snapshot within (14:30Z, 15:00Z]: none
      { hour: 10, at: '15:00', desk: [12, 1], high: { f: 48.2, c: 9, since: at('14:00') }, mkta: [], mktb: 0 },
      {
        hour: 11,
        at: '16:00',
        desk: [12.5, 0.8],
        high: { f: 48.2, c: 9, since: at('14:00') },
        mkta: [0.35, 0.45],
        mktb: 0,
      },
      // 17:00Z: the 12 °C reading of 17:00Z counts
      { hour: 12, at: '17:00', desk: [12.5, 0.8], high: { f: 53.6, c: 12, since: at('17:00') }, mkta: [], mktb: 0 },
      {
        hour: 13,
        at: '18:00',
        desk: [12.5, 0.8],
        high: { f: 53.6, c: 12, since: at('17:00') },
        mkta: [0.1, 0.8],
        mktb: 0,
      },
      // 19:00Z: 13 °C (55.4 °F), above the poll's 12.4 °C of 18:30Z
      { hour: 14, at: '19:00', desk: [12.5, 0.8], high: { f: 55.4, c: 13, since: at('19:00') }, mkta: [], mktb: 0 },
      { hour: 15, at: '20:00', desk: [12.5, 0.8], high: { f: 55.4, c: 13, since: at('19:00') }, mkta: [], mktb: 0 },
      { hour: 16, at: '21:00', desk: [12.5, 0.8], high: { f: 55.4, c: 13, since: at('19:00') }, mkta: [], mktb: 0 },
    ]);
    expect(day?.hours[0]?.atMs).toBe(at('14:00'));
  });

  it('follows the filter’s city and dates', () => {
    expect(cache.history.boardRecordDays({ cityId: 'paris' })).toEqual([]);
    expect(cache.history.boardRecordDays({ since: '2026-11-25' })).toEqual([]);
    expect(cache.history.boardRecordDays({ cityId: 'nyc', until: DAY })).toHaveLength(1);
  });

  it('reads a day kept from before not again, until it settles at another value', () => {
    const known = new Map<string, RecordDay>();
    const first = cache.history.boardRecordDays({}, known);
    const before = cache.readStats.rows;
    const again = cache.history.boardRecordDays({}, known);
    expect(again).toEqual(first);
    // the settled days' list alone: the day's lock (and no forecast score), and the city
    expect(cache.readStats.rows - before).toBe(2);
  });
});
