import { describe, expect, it } from 'vitest';
import {
  type BrowseFilter,
  type BrowseKey,
  type BrowseRow,
  type BrowseTable,
  type Cache,
  openCache,
} from '../../../src/cache/index.js';
import type { FusionLock } from '../../../src/contract/fusion-locks.js';
import type { HistoricalRow } from '../../../src/contract/historical.js';
import type { StrategyRecord } from '../../../src/contract/strategies.js';
import { walkNewer, walkOlder } from '../keyset.js';

const keyOf = (r: BrowseRow): BrowseKey => r.key;
const idsOf = (rows: BrowseRow[]) => rows.map((r) => r.row.id);

/** A METAR row: its time is `observed_at`, an instant. */
const metar = (id: number, observedAt: string, cityId = 'nyc'): HistoricalRow => ({
  id,
  city_id: cityId,
  local_date: observedAt.slice(0, 10),
  station_code: 'KNYC',
  observed_at: observedAt,
  fetched_at: observedAt,
  temp_c: 10,
  temp_f: 50,
});

const lock = (id: string, lockedAt: string) =>
  ({ id, city_id: 'nyc', local_date: lockedAt.slice(0, 10), locked_at: lockedAt, resolved: false }) as FusionLock;

const record = (id: number, localDate: string) =>
  ({ id, city_id: 'nyc', local_date: localDate, outcome: null, strategy: 'no24' }) as unknown as StrategyRecord;

/**
 * Rows with ties on every sort key a plan uses: METAR rows sharing their observation time (two pairs), locks
 * sharing their lock time, records of one date.
 */
function filledCache(): Cache {
  const cache = openCache(':memory:');
  cache.resources.upsertHistorical('metar_observations_history', [
    metar(9, '2026-11-21T12:00:00Z'),
    metar(8, '2026-11-21T12:00:00Z'),
    metar(7, '2026-11-21T13:00:00Z'),
    metar(6, '2026-11-21T11:00:00Z', 'paris'),
    metar(5, '2026-11-21T11:00:00Z'),
    metar(4, '2026-11-20T23:00:00Z'),
    metar(3, '2026-11-21T10:00:00Z'),
  ]);
  cache.resources.upsertFusionLocks([
    lock('fl-1', '2026-11-21T14:00:00Z'),
    lock('fl-2', '2026-11-21T14:00:00Z'),
    lock('fl-3', '2026-11-21T15:00:00Z'),
    lock('fl-4', '2026-11-20T14:00:00Z'),
  ]);
  cache.resources.upsertStrategy('no24', [
    record(11, '2026-11-21'),
    record(12, '2026-11-21'),
    record(10, '2026-11-20'),
  ]);
  return cache;
}

function walkBoth(cache: Cache, table: BrowseTable, filter: BrowseFilter, limit: number) {
  const older = walkOlder((after, n) => cache.history.older(table, filter, after, n), keyOf, limit);
  const last = older.at(-1);
  const newer = last ? walkNewer((before, n) => cache.history.newer(table, filter, before, n), keyOf, last, limit) : [];
  return { older: idsOf(older), newer: idsOf(newer) };
}

describe('the History pane’s pages, by keyset', () => {
  it('read nothing from an empty table, and nothing for a page of no rows', () => {
    const cache = openCache(':memory:');
    expect(cache.history.older('metar_observations_history', {}, null, 10)).toEqual([]);
    expect(cache.history.older('no24', {}, null, 10)).toEqual([]);
    expect(filledCache().history.older('fusion-locks', {}, null, 0)).toEqual([]);
  });

  it('a historical table without dates: newest id first, every page size, both directions', () => {
    const cache = filledCache();
    const all = [9, 8, 7, 6, 5, 4, 3];
    expect(idsOf(cache.history.older('metar_observations_history', {}, null, 3))).toEqual([9, 8, 7]);
    for (const limit of [1, 2, 3, 7, 8]) {
      expect(walkBoth(cache, 'metar_observations_history', {}, limit), `by ${limit}`).toEqual({
        older: all,
        newer: all.slice(0, -1).reverse(),
      });
    }
  });

  it('a historical table between dates: newest time first, a tie on the time broken by id, descending', () => {
    const cache = filledCache();
    const filter = { since: '2026-11-21', until: '2026-11-21' };
    // 13:00, then 12:00 twice, 11:00 twice (one in paris), 10:00; the row of the 20th is outside
    const all = [7, 9, 8, 6, 5, 3];
    for (const limit of [1, 2, 3, 6]) {
      expect(walkBoth(cache, 'metar_observations_history', filter, limit), `by ${limit}`).toEqual({
        older: all,
        newer: all.slice(0, -1).reverse(),
      });
    }
    // a page boundary inside a tie continues with the other row of the same time
    const [first] = cache.history.older('metar_observations_history', filter, null, 2).slice(1);
    expect(idsOf(cache.history.older('metar_observations_history', filter, (first as BrowseRow).key, 1))).toEqual([8]);
    // the city filter inside the dates
    const nyc = walkBoth(cache, 'metar_observations_history', { ...filter, cityId: 'nyc' }, 2);
    expect(nyc.older).toEqual([7, 9, 8, 5, 3]);
  });

  it('fusion locks: newest lock time first, a tie broken by id, descending', () => {
    const cache = filledCache();
    for (const limit of [1, 2, 4]) {
      expect(walkBoth(cache, 'fusion-locks', {}, limit), `by ${limit}`).toEqual({
        older: ['fl-3', 'fl-2', 'fl-1', 'fl-4'],
        newer: ['fl-1', 'fl-2', 'fl-3'],
      });
    }
  });

  it('strategy records: newest id first; nothing past either end', () => {
    const cache = filledCache();
    expect(walkBoth(cache, 'no24', {}, 2)).toEqual({ older: [12, 11, 10], newer: [11, 12] });
    const [newest] = cache.history.older('no24', {}, null, 1);
    expect(cache.history.newer('no24', {}, (newest as BrowseRow).key, 5)).toEqual([]);
    const oldest = cache.history.older('no24', {}, null, 3).at(-1) as BrowseRow;
    expect(cache.history.older('no24', {}, oldest.key, 5)).toEqual([]);
  });
});
