import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportBoard } from '../../src/board/board-export.js';
import { type Cache, openCache } from '../../src/cache/index.js';
import { ApiClient } from '../../src/client/api-client.js';
import { SyncEngine } from '../../src/sync/sync-engine.js';
import { startTestService, TEST_KEY, type TestService } from '../helpers/service.js';
import { TEMPLATE_START } from '../helpers/world-template.js';

/**
 * DESIGN 4 "a price against a model of the same instant", as the sync keeps it: the prices poll every 200 ms, the
 * METAR and the desk's forecasts only once an hour. When the world publishes its 12:30 half hour (a METAR report, the
 * desk's run and both venues' snapshots at the same instant), the prices' pass brings the snapshots and asks the
 * model's streams for a pass at once, so the board compares prices and a model of the same instant within seconds
 * rather than within the hour.
 */
const HOUR = 3_600_000;
const HALF_PAST = TEMPLATE_START + 30 * 60_000;
let svc: TestService;
let root: string;
let cache: Cache;
let client: ApiClient;
let engine: SyncEngine;

beforeAll(async () => {
  svc = await startTestService({ tickMs: 24 * HOUR });
  root = mkdtempSync(join(tmpdir(), 'catch-up-'));
  cache = openCache(join(root, 'cache.db'));
  client = new ApiClient({ baseUrl: svc.baseUrl, apiKey: TEST_KEY });
  const slow = Object.fromEntries(
    ['cities', 'current', 'forecasts', 'no24', 'yescore', 'svc-max-picks', 'fusion-locks', 'metar', 'daily'].map(
      (s) => [s, HOUR],
    ),
  );
  engine = new SyncEngine({ client, cache, intervals: { ...slow, 'mkta-buckets': 200, 'mktb-buckets': 200 } });
  void engine.start();
});
afterAll(async () => {
  await engine.stop();
  await client.close();
  cache.close();
  await svc.close();
  rmSync(root, { recursive: true, force: true });
});

const completeAt = (stream: string) =>
  Date.parse(cache.streams.states().find((s) => s.stream === stream)?.complete_at ?? '');

/** Polls the cache until `ready` holds (the test's timeout bounds the wait). */
async function until(ready: () => boolean): Promise<void> {
  while (!ready()) await new Promise((r) => setTimeout(r, 50));
}

describe('the board’s streams catch up with each other', () => {
  it('fetches the METAR and the desk up to a new snapshot at once, and the board compares them', async () => {
    // the first pass: the world stands at 12:00:00 and answers 11:59:59
    await until(() => completeAt('forecasts') > 0 && completeAt('metar') > 0 && completeAt('mktb-buckets') > 0);
    expect(completeAt('metar')).toBe(TEMPLATE_START - 1_000);
    // the world publishes its 12:30 half hour (and the service's clock reads 12:30:00)
    svc.service.world.advanceTo(HALF_PAST + 500);
    await until(
      () =>
        cache.streams.newestTime('mkta_buckets_history') === '2026-11-21T12:30:00Z' &&
        completeAt('forecasts') >= HALF_PAST,
    );
    // the hourly streams ran again, answered at 12:30:00: every report and run of 12:30 is held
    expect(completeAt('metar')).toBe(HALF_PAST);
    expect(completeAt('forecasts')).toBe(HALF_PAST);
    // so no city's prices wait for the model, nor the model for the prices
    const board = exportBoard(cache, { atMs: HALF_PAST, replay: false, cities: cache.resources.cities() });
    expect(board.map((c) => [c.city_id, c.behind])).toEqual(board.map((c) => [c.city_id, null]));
  });
});
