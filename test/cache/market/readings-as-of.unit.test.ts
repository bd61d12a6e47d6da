import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Cache, openCache } from '../../../src/cache/index.js';
import type { HistoricalRow } from '../../../src/contract/historical.js';
import { localDay } from '../../../src/domain/city-time.js';
import { cToF, HandCache, NYC } from '../../helpers/cache-builder.js';

/**
 * What the four sources read and what the models forecast of a day, as of an instant, from the polls and the history
 * tables. Every row is this file's own: New York, 2026-11-26 (05:00Z to 05:00Z the next day).
 */
const DAY = '2026-11-26';
const at = (hhmm: string, date = DAY) => `${date}T${hhmm}:00Z`;
const ms = (hhmm: string, date = DAY) => Date.parse(at(hhmm, date));

let cache: Cache;
let h: HandCache;
beforeEach(() => {
  cache = openCache(':memory:');
  h = new HandCache(cache).cities(NYC);
});
afterEach(() => cache.close());

const reading = (id: number, hhmm: string, c: number | null): HistoricalRow =>
  ({
    id,
    city_id: 'nyc',
    local_date: DAY,
    observed_at: at(hhmm),
    fetched_at: at(hhmm),
    humidity: 60,
    ...(c === null ? {} : { temp_c: c, temp_f: cToF(c) }),
  }) as HistoricalRow;

/** [source, °F, the instant it is read as of] of each source read. */
const read = (atMs?: number) =>
  cache.market.readings('nyc', atMs).map((r) => [r.source, r.temp_f, r.fetched_at.slice(11, 16)]);

describe('the four sources as of an instant', () => {
  it('the newer of the poll and the history row at or before it, the poll on a tie; never one after it', () => {
    // polls: 12:00Z 5 °C (41.0 °F), 16:00Z 7 °C (44.6 °F)
    h.current(NYC, at('12:00'), 5).current(NYC, at('16:00'), 7);
    // wxa's history: 14:00Z 9 °C (48.2), 16:00Z 10 °C (the poll's instant), 17:30Z 20 °C (68.0); one without a
    // temperature at 16:50Z
    cache.resources.upsertHistorical('wxa_history', [
      reading(1, '14:00', 9),
      reading(2, '16:00', 10),
      reading(3, '17:30', 20),
      reading(4, '16:50', null),
    ]);
    // 15:00Z: wxa's history (14:00Z) is newer than its poll (12:00Z); the other sources have only the poll
    expect(read(ms('15:00'))).toEqual([
      ['wxa_current', 48.2, '14:00'],
      ['wxb_current', 41, '12:00'],
      ['metar_observations', 41, '12:00'],
      ['pws_observations', 41, '12:00'],
    ]);
    // 17:00Z: the 16:00Z poll and history row are the same instant: the poll; the row without a temperature is passed
    expect(read(ms('17:00'))[0]).toEqual(['wxa_current', 44.6, '16:00']);
    // 17:30Z: the history's reading of 17:30Z; now (no instant): the same, the newest
    expect(read(ms('17:30'))[0]).toEqual(['wxa_current', 68, '17:30']);
    expect(read()[0]).toEqual(['wxa_current', 68, '17:30']);
    // before wxa's first history row its poll, and before the first poll nothing
    expect(read(ms('13:59'))[0]).toEqual(['wxa_current', 41, '12:00']);
    expect(read(ms('11:59'))).toEqual([]);
  });

  it('searches a source’s history 6 h back: an older reading is a gap, not what it reads now', () => {
    cache.resources.upsertHistorical('wxa_history', [reading(1, '06:00', 9)]);
    expect(read(ms('12:00'))).toEqual([['wxa_current', 48.2, '06:00']]);
    expect(read(ms('12:01'))).toEqual([]);
  });
});

describe("the models' forecasts of a day", () => {
  const row = (id: number, date: string, model: string, c: number): HistoricalRow =>
    ({
      id,
      city_id: 'nyc',
      local_date: date,
      model,
      unit: 'F',
      predicted_max_c: c,
      predicted_max_f: cToF(c),
      predicted_bucket_slug: '50-51f',
      actual_max_c: 15,
      actual_max_f: 59,
      actual_bucket_slug: '58-59f',
      exact_hit: false,
    }) as HistoricalRow;
  const span = localDay(DAY, NYC.tz);

  it('each product’s newest row of the day in the order written, its prediction only, once the day has begun', () => {
    cache.resources.upsertHistorical('model_forecasts_daily', [
      row(1, DAY, 'gfs', 11),
      row(2, DAY, 'icon', 9),
      row(3, DAY, 'edge_ensemble', 10.2),
      // gfs again, later: the newest row wins
      row(4, DAY, 'gfs', 11.5),
      row(5, '2026-11-27', 'gfs', 20),
    ]);
    expect(cache.market.dayAhead('nyc', span, ms('12:00'))).toEqual([
      { model: 'icon', predicted_max_c: 9, predicted_max_f: 48.2 },
      { model: 'edge_ensemble', predicted_max_c: 10.2, predicted_max_f: 50.4 },
      { model: 'gfs', predicted_max_c: 11.5, predicted_max_f: 52.7 },
    ]);
    // the day begins at 05:00Z (its local midnight): before it the day's row does not exist
    expect(cache.market.dayAhead('nyc', span, ms('04:59'))).toEqual([]);
    expect(cache.market.dayAhead('nyc', span, ms('05:00'))).toHaveLength(3);
  });
});
