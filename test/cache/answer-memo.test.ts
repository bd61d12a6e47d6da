import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type Answer, type Cache, openCache } from '../../src/cache/index.js';
import type { HistoricalRow } from '../../src/contract/historical.js';
import type { StrategyRecord } from '../../src/contract/strategies.js';
import { exported } from '../helpers/cache-rows.js';

const METAR = 'metar_observations_history';
const reading = (id: number, tempF: number): HistoricalRow => ({
  id,
  city_id: 'paris',
  local_date: '2026-11-21',
  station_code: 'LFPG',
  observed_at: `2026-11-21T1${id}:00:00Z`,
  fetched_at: `2026-11-21T1${id}:05:00Z`,
  temp_c: 10,
  temp_f: tempF,
  raw: `METAR LFPG ${id}`,
});
const READINGS = [reading(1, 50), reading(2, 51), reading(3, 52)];
/** The body the rows came in, as a service would send it: the memo knows rows by the text they were parsed from. */
const answer = (rows: HistoricalRow[], source = 'live/metar/0'): Answer => ({
  source,
  text: JSON.stringify({ table: METAR, count: rows.length, next_cursor: null, data: rows }),
});
const storedTemps = (cache: Cache) =>
  exported<HistoricalRow>(cache, `historical/${METAR}`).map((r) => [r.id, r.temp_f]);

let dir: string;
const caches: Cache[] = [];
function open(file = 'cache.db'): Cache {
  dir ??= mkdtempSync(join(tmpdir(), 'svc-answer-memo-'));
  const cache = openCache(join(dir, file));
  caches.push(cache);
  return cache;
}

afterEach(() => {
  for (const cache of caches.splice(0)) cache.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined as unknown as string;
});

// a warm poll skips the rows of an answer it has stored already; these are the cases where it must not
describe('rows of an answer already stored', () => {
  it('come back unchanged, neither inserted nor updated, and the checkpoint still moves with the page', () => {
    const cache = open();
    expect(
      cache.resources.upsertHistorical(METAR, READINGS, { stream: 'live/x', value: 'a' }, answer(READINGS)),
    ).toEqual({ inserted: 3, updated: 0, unchanged: 0 });
    expect(
      cache.resources.upsertHistorical(METAR, READINGS, { stream: 'live/x', value: 'b' }, answer(READINGS)),
    ).toEqual({ inserted: 0, updated: 0, unchanged: 3 });
    expect(cache.streams.checkpoint('live/x')).toBe('b');
    expect(storedTemps(cache)).toEqual([
      [3, 52],
      [2, 51],
      [1, 50],
    ]);
  });

  it('are compared again after another connection committed: a row it changed is put back', () => {
    const cache = open();
    cache.resources.upsertHistorical(METAR, READINGS, undefined, answer(READINGS));
    // another process writing the same file (a second sync, say) stores another version of reading 2
    const other = open();
    expect(other.resources.upsertHistorical(METAR, [reading(2, 99)]).updated).toBe(1);
    expect(cache.resources.upsertHistorical(METAR, READINGS, undefined, answer(READINGS))).toEqual({
      inserted: 0,
      updated: 1,
      unchanged: 2,
    });
    expect(storedTemps(cache)).toEqual([
      [3, 52],
      [2, 51],
      [1, 50],
    ]);
  });

  it("are compared again after this connection's own write of the table without that answer (a backfill)", () => {
    const cache = open();
    cache.resources.upsertHistorical(METAR, READINGS, undefined, answer(READINGS));
    expect(cache.resources.upsertHistorical(METAR, [reading(1, 70)]).updated).toBe(1);
    expect(cache.resources.upsertHistorical(METAR, READINGS, undefined, answer(READINGS))).toEqual({
      inserted: 0,
      updated: 1,
      unchanged: 2,
    });
    expect(storedTemps(cache)).toContainEqual([1, 50]);
  });

  it('are compared again after another answer changed the table, and a new text is written row by row', () => {
    const cache = open();
    const other = [reading(1, 60)];
    cache.resources.upsertHistorical(METAR, READINGS, undefined, answer(READINGS));
    // the second page of the same table brings another version of reading 1
    expect(cache.resources.upsertHistorical(METAR, other, undefined, answer(other, 'live/metar/1')).updated).toBe(1);
    expect(cache.resources.upsertHistorical(METAR, READINGS, undefined, answer(READINGS)).updated).toBe(1);
    // the same source with a new text: reading 3 changed, 4 is new
    const next = [reading(1, 50), reading(2, 51), reading(3, 53), reading(4, 54)];
    expect(cache.resources.upsertHistorical(METAR, next, undefined, answer(next))).toEqual({
      inserted: 1,
      updated: 1,
      unchanged: 2,
    });
  });

  it('are kept apart by table: the same source and text into another table is written', () => {
    const cache = open();
    const record = {
      id: 1,
      city_id: 'paris',
      local_date: '2026-11-21',
      outcome: null,
      strategy: 'no24',
    } as unknown as StrategyRecord;
    // each table written once, so both stand at the same count of writes
    cache.resources.upsertStrategy('no24', [{ ...record, id: 2 }]);
    const shared: Answer = { source: 'one-name', text: '{"data":[]}' };
    cache.resources.upsertHistorical(METAR, READINGS, undefined, shared);
    expect(cache.resources.upsertStrategy('no24', [record], shared)).toEqual({ inserted: 1, updated: 0, unchanged: 0 });
  });
});
