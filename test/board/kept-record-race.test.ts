import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { exportBoardRecord } from '../../src/board/board-record.js';
import { type Cache, type KeptRecordDay, openCache } from '../../src/cache/index.js';
import { DAY, fillAsOfDay, metarReport } from '../cache/as-of-day.js';

/**
 * The board's record of a settled day is read, worked out and kept from one snapshot (kept-record-days.ts): a late
 * report another process stores between the read and the keep (before any kept row exists for its trigger to drop)
 * must not leave the record worked out without it kept. Two connections on one file, as a monitor and a sync are.
 */

let root: string;
let screen: Cache;
let sync: Cache;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'svc-kept-race-'));
  screen = openCache(join(root, 'cache.db'));
  fillAsOfDay(screen);
  sync = openCache(join(root, 'cache.db'));
});
afterEach(() => {
  sync.close();
  screen.close();
  rmSync(root, { recursive: true, force: true });
});

/** What the record keeps of the hand-built day, worked out from what `cache` reads now. */
function workedOut(cache: Cache): KeptRecordDay[] {
  const days = cache.history.recordSettledDays({});
  return cache.history.recordDaysOf(days).map((day, i) => ({
    city_id: day.city_id,
    local_date: day.local_date,
    rules: 'test',
    settled: day.settled,
    fromMs: days[i]?.fromMs ?? 0,
    toMs: days[i]?.toMs ?? 0,
    trades: '[]',
  }));
}

describe('a settled day’s record kept from the snapshot it was read in', () => {
  it('is kept when nothing was written meanwhile', () => {
    expect(screen.history.keepRecordDaysAsRead(() => workedOut(screen))).toBe(true);
    expect([...screen.history.keptRecordDays({}).keys()]).toEqual([`nyc|${DAY}`]);
  });

  it('is not kept when another process stored a row of the day after the read began', () => {
    const kept = screen.history.keepRecordDaysAsRead(() => {
      const days = workedOut(screen);
      // the sync stores a late report of the day (13:30Z, within its span) while the screen works the day out
      sync.resources.upsertHistorical('metar_observations_history', [metarReport(100, `${DAY}T13:30:00Z`, 20)]);
      return days;
    });
    expect(kept).toBe(false);
    expect(screen.history.keptRecordDays({}).size).toBe(0);
    // the next read sees the report: 20 °C from 08:30 local makes every hour CHECK, no position; and keeps that
    expect(exportBoardRecord(screen, { edgeMin: 0.08 })).toEqual([]);
    expect(screen.history.keptRecordDays({}).get(`nyc|${DAY}`)?.trades).toBe('[]');
  });

  it('passes on an error of the work itself', () => {
    expect(() =>
      screen.history.keepRecordDaysAsRead(() => {
        throw new Error('the work failed');
      }),
    ).toThrow('the work failed');
  });
});
