import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { exportBoardRecord, readBoardRecord } from '../../src/board/board-record.js';
import { type Cache, openCache, type RecordDay } from '../../src/cache/index.js';
import { DAY, fillAsOfDay, metarReport } from '../cache/as-of-day.js';

/**
 * The board's record of a settled day worked out once and kept (issue 43), on the hand-built New York day of
 * as-of-day.ts: its record is three positions (board-record.unit.test.ts works them out), at 09:00 NO 54-55°F at 0.60
 * (lost, -10), at 11:00 NO 52-53°F at 0.65 (won, +5.38) and YES 54-55°F at 0.45 (won, +12.22). The day's record
 * reads its rows from 09:00 local the day before (14:00Z on the 23rd, the desk's 24 h) to 16:00 local (21:00Z).
 */
const RULES = { edgeMin: 0.08 };
const POSITIONS = [
  [9, '54-55°F', 'NO', 0.6, false, -10],
  [11, '52-53°F', 'NO', 0.65, true, 5.38],
  [11, '54-55°F', 'YES', 0.45, true, 12.22],
];
const positions = (cache: Cache) =>
  exportBoardRecord(cache, RULES).map((t) => [t.local_hour, t.bucket_label, t.side, t.price, t.won, t.pnl]);

let cache: Cache;
beforeEach(() => {
  cache = openCache(':memory:');
  fillAsOfDay(cache);
});
afterEach(() => cache.close());

describe('the board’s record of a settled day, kept', () => {
  it('is worked out once, kept with its rules, value and span, and read back as the same positions', () => {
    expect(cache.history.keptRecordDays({}).size).toBe(0);
    expect(positions(cache)).toEqual(POSITIONS);
    const kept = cache.history.keptRecordDays({}).get(`nyc|${DAY}`);
    // settled at 55 °F (the lock's 13 °C, 55.4 °F); 14:00Z of the 23rd to 21:00Z of the 24th
    expect([kept?.rules, kept?.settled, kept?.fromMs, kept?.toMs]).toEqual([
      'v2|0.08|metar_c',
      55,
      Date.parse('2026-11-23T14:00:00Z'),
      Date.parse(`${DAY}T21:00:00Z`),
    ]);
    // read again: the settled days' list (the city, the lock) and the kept day, no row of the day's history
    const before = cache.readStats.rows;
    expect(positions(cache)).toEqual(POSITIONS);
    expect(cache.readStats.rows - before).toBe(3);
    // History's summaries read the same kept day
    const record = readBoardRecord(cache, RULES);
    expect([record.all.all.n, record.all.all.pnl]).toEqual([3, 7.6]);
  });

  it('is parsed once while a view stays open (History’s `known`): a re-read hands back the same positions', () => {
    const known = new Map<string, RecordDay>();
    readBoardRecord(cache, RULES, { known });
    // the first read worked the day out; the second parses the kept day and holds it; the third reuses it
    const second = readBoardRecord(cache, RULES, { known });
    const third = readBoardRecord(cache, RULES, { known });
    expect(third.trades).toHaveLength(3);
    expect(third.trades[0]).toBe(second.trades[0]);
    // another view parses for itself
    expect(readBoardRecord(cache, RULES).trades[0]).not.toBe(second.trades[0]);
  });

  it('is worked out again under other rules, and kept under them', () => {
    positions(cache);
    // an edge_min of 0.2: only the two 11:00 edges (0.24056 and 0.3287) reach it
    expect(exportBoardRecord(cache, { edgeMin: 0.2 }).map((t) => t.local_hour)).toEqual([11, 11]);
    expect(cache.history.keptRecordDays({}).get(`nyc|${DAY}`)?.rules).toBe('v2|0.2|metar_c');
  });

  it('is dropped when a late report lands within its span, and the next read sees it', () => {
    positions(cache);
    // 20 °C at 13:30Z (08:30 local): from 09:00 the running high is far above the desk's N(11..12.5, 1), every hour
    // CHECK (no edge offered): no position
    cache.resources.upsertHistorical('metar_observations_history', [metarReport(100, `${DAY}T13:30:00Z`, 20)]);
    expect(cache.history.keptRecordDays({}).size).toBe(0);
    expect(positions(cache)).toEqual([]);
    expect(cache.history.keptRecordDays({}).get(`nyc|${DAY}`)?.trades).toBe('[]');
  });

  it('is dropped by a late /current poll of METAR within its span', () => {
    positions(cache);
    cache.resources.addCurrent({
      city_id: 'nyc',
      metar_observations: { temp_f: 68, temp_c: 20, fetched_at: `${DAY}T13:30:00Z` },
      wxa_current: { temp_f: 68, fetched_at: `${DAY}T13:30:00Z` },
      wxb_current: { temp_f: 68, fetched_at: `${DAY}T13:30:00Z` },
      pws_observations: { temp_f: 68, fetched_at: `${DAY}T13:30:00Z` },
    } as never);
    expect(cache.history.keptRecordDays({}).size).toBe(0);
    expect(positions(cache)).toEqual([]);
  });

  it('is dropped when a row it read changes (a corrected report), and kept again as it then reads', () => {
    positions(cache);
    // the 22:00Z report (id 5), after 16:00 local, is outside the span: the day stays kept
    cache.resources.upsertHistorical('metar_observations_history', [metarReport(5, `${DAY}T22:00:00Z`, 30)]);
    // the next day's report at 06:00Z of the 25th, too
    cache.resources.upsertHistorical('metar_observations_history', [metarReport(101, '2026-11-25T06:00:00Z', 30)]);
    expect(cache.history.keptRecordDays({}).size).toBe(1);
    // the 19:00Z report (id 4) corrected from 13 to 20 °C: from 14:00 local the record is CHECK, before it unchanged
    cache.resources.upsertHistorical('metar_observations_history', [metarReport(4, `${DAY}T19:00:00Z`, 20)]);
    expect(cache.history.keptRecordDays({}).size).toBe(0);
    expect(positions(cache)).toEqual(POSITIONS);
    expect(cache.history.keptRecordDays({}).size).toBe(1);
  });
});
