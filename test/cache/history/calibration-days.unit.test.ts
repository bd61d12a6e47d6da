import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Cache, openCache } from '../../../src/cache/index.js';
import type { FusionLock } from '../../../src/contract/fusion-locks.js';
import type { HistoricalRow } from '../../../src/contract/historical.js';
import { CITIES, fillCalibrationHistory } from '../../helpers/calibration-history.js';

/** The hand-built history of test/helpers/calibration-history.ts (its comment gives every value). */
let cache: Cache;
beforeEach(() => {
  cache = openCache(':memory:');
  fillCalibrationHistory(cache);
});
afterEach(() => cache.close());

const exportedLock = (c: Cache, id: string) =>
  c.export
    .rows('fusion-locks')
    .map((json) => JSON.parse(json) as FusionLock)
    .find((l) => l.id === id);
const prices = (quotes: { yes_price: number | null }[] | undefined) => quotes?.map((q) => q.yes_price);
const LADDER = ['19°C or below', '20°C', '21°C', '22°C or higher'];

describe('the calibration’s reads of the cache', () => {
  it('reads each settled day, the desk’s forecast and each venue’s prices at 12:00 local, and the day’s METAR', () => {
    const days = cache.history.calibrationDays({});
    expect(days.map((d) => [d.city_id, d.local_date, d.unit, d.settled])).toEqual([
      ['berlin', '2026-11-01', 'C', 21],
      ['berlin', '2026-11-02', 'C', 23],
      ['nyc', '2026-11-02', 'F', 54],
    ]);
    const [one, two, nyc] = days;
    // the 10:05Z run (11:05 local), not the 09:05Z one nor the 11:05Z one after noon
    expect(one?.forecast).toEqual({ muC: 20.5, sigmaC: 1 });
    // 23:00Z, 11:00Z and 13:00Z are 00:00, 12:00 and 14:00 in Berlin
    expect(one?.readings).toEqual([
      { hour: 0, value: 15 },
      { hour: 12, value: 20.6 },
      { hour: 14, value: 21.2 },
    ]);
    // the 11:00Z snapshot: not the 10:00Z one, nor the 12:00Z one after noon
    expect(one?.noonQuotes.mkta?.map((q) => q.bucket_label)).toEqual(LADDER);
    expect(prices(one?.noonQuotes.mkta)).toEqual([0.05, 0.3, 0.5, 0.25]);
    expect(prices(one?.noonQuotes.mktb)).toEqual([0.1, 0.2, 0.6, 0.1]);
    expect(two?.readings).toEqual([{ hour: 13, value: 23 }]);
    expect(prices(two?.noonQuotes.mkta)).toEqual([0.1, 0.4, 0.4, 0.1]);
    expect(two?.noonQuotes.mktb).toBeUndefined();
    // nyc, a °F market, read in °C as DESIGN 4 settles it (10 °C = 50.0 °F, 12 °C = 53.6 °F); 05:00Z and 15:00Z are
    // 00:00 and 10:00 in New York; no forecast, no quotes
    expect(nyc?.forecast).toBeNull();
    expect(nyc?.readings).toEqual([
      { hour: 0, value: 10 },
      { hour: 10, value: 12 },
    ]);
    expect(nyc?.noonQuotes).toEqual({});
  });

  it('follows the filter’s city and dates', () => {
    const days = cache.history.calibrationDays({ cityId: 'berlin', since: '2026-11-02', until: '2026-11-03' });
    expect(days.map((d) => [d.city_id, d.local_date])).toEqual([['berlin', '2026-11-02']]);
  });

  it('settles a °F day on its whole-°C high converted: a lock of 13 °C (55.4 °F) settles at 55', () => {
    cache.resources.upsertFusionLocks([
      {
        ...(exportedLock(cache, 'fl-berlin-2026-11-01') as FusionLock),
        id: 'fl-nyc-2026-11-02',
        city_id: 'nyc',
        local_date: '2026-11-02',
        locked_at: '2026-11-02T20:00:00Z',
        actual_tmax_c: 13,
        // a °F value that would settle elsewhere (and the day's forecast score says 54): the °C one decides
        actual_tmax_f: 56,
      },
    ]);
    expect(cache.history.calibrationDays({ cityId: 'nyc' }).map((d) => d.settled)).toEqual([55]);
  });

  it('takes the resolved lock’s value over the day’s forecast score', () => {
    cache.resources.upsertHistorical('forecast_accuracy_daily', [
      { id: 9001, city_id: 'berlin', local_date: '2026-11-01', unit: 'C', actual_max: 30, abs_error: 9.5 },
    ]);
    expect(cache.history.calibrationDays({ cityId: 'berlin' })[0]?.settled).toBe(21);
  });

  it('does not read a day again that the caller already holds, only the days settled since', () => {
    const known = new Map();
    const first = cache.history.calibrationDays({}, known);
    expect(known.size).toBe(3);
    const before = cache.readStats.rows;
    expect(cache.history.calibrationDays({}, known)).toEqual(first);
    // only the list of settled days: 2 cities, 1 forecast score (nyc), 2 resolved locks
    expect(cache.readStats.rows - before).toBe(5);

    // 11-03 settles at 24 (its METAR 24.0 at 13:00, its quotes and forecast at noon are cached)
    cache.resources.upsertFusionLocks([
      {
        ...(exportedLock(cache, 'fl-berlin-2026-11-03') as FusionLock),
        resolved: true,
        actual_tmax_c: 24,
        actual_tmax_f: 75.2,
      },
    ]);
    const after = cache.readStats.rows;
    const days = cache.history.calibrationDays({}, known);
    expect(days.map((d) => d.local_date)).toEqual(['2026-11-01', '2026-11-02', '2026-11-03', '2026-11-02']);
    expect(days[2]?.settled).toBe(24);
    expect(days[2]?.forecast).toEqual({ muC: 20.5, sigmaC: 1 });
    // the list (2 cities, 1 score, now 3 locks), one id-range probe a table (METAR, forecasts, mkta, mktb), and
    // 11-03 alone: 1 METAR reading, 1 forecast, 4 mkta quotes
    expect(cache.readStats.rows - after).toBe(6 + 4 + 1 + 1 + 4);
  });

  it('reads only the settled days’ own hours: rows of other days, hours and cities cost nothing', () => {
    const before = { ...cache.readStats };
    const first = cache.history.calibrationDays({});
    const cost = { rows: cache.readStats.rows - before.rows };

    let id = 100_000;
    const rows: Record<string, HistoricalRow[]> = { metar: [], mkta: [], forecast: [] };
    const minute = 60_000;
    const start = Date.parse('2026-11-01T00:00:00Z');
    for (let m = 0; m < 4 * 24 * 60; m += 5) {
      const t = start + m * minute;
      const iso = `${new Date(t).toISOString().slice(0, 19)}Z`;
      // paris, a city with no settled day, at every instant of the settled days and after
      rows.metar?.push({ id: ++id, city_id: 'paris', local_date: iso.slice(0, 10), observed_at: iso, temp_c: 30 });
      rows.mkta?.push({
        id: ++id,
        city_id: 'paris',
        local_date: iso.slice(0, 10),
        snapshot_at: iso,
        bucket_label: '30°C',
        yes_price: 0.9,
      });
      rows.forecast?.push({ id: ++id, city_id: 'paris', local_date: iso.slice(0, 10), fetched_at: iso });
      // berlin after its settled days (11-03 onward is open) and its own quotes after noon
      if (t >= Date.parse('2026-11-02T23:00:00Z'))
        rows.metar?.push({ id: ++id, city_id: 'berlin', local_date: '2026-11-03', observed_at: iso, temp_c: 30 });
      if (t > Date.parse('2026-11-01T11:00:00Z') && t < Date.parse('2026-11-01T23:00:00Z'))
        rows.mkta?.push({
          id: ++id,
          city_id: 'berlin',
          local_date: '2026-11-01',
          snapshot_at: iso,
          bucket_label: '21°C',
          yes_price: 0.99,
        });
    }
    cache.resources.upsertCities([{ ...(CITIES[0] as (typeof CITIES)[number]), city_id: 'paris', icao: 'LFPG' }]);
    cache.resources.upsertHistorical('metar_observations_history', rows.metar ?? []);
    cache.resources.upsertHistorical('mkta_buckets_history', rows.mkta ?? []);
    cache.resources.upsertHistorical('forecast_history', rows.forecast ?? []);
    // 1,152 five-minute instants over four days: thousands of rows, none of them read back
    expect((rows.metar?.length ?? 0) + (rows.mkta?.length ?? 0)).toBeGreaterThan(3000);

    const again = { ...cache.readStats };
    expect(cache.history.calibrationDays({})).toEqual(first);
    // the cities table grew by one row (paris), read once; every other row read is the same as before
    expect(cache.readStats.rows - again.rows).toBe(cost.rows + 1);
  });
});
