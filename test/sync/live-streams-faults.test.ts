import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Cache, openCache } from '../../src/cache/index.js';
import { ApiClient } from '../../src/client/api-client.js';
import { InvalidResponse } from '../../src/client/errors.js';
import type { HistoricalTable } from '../../src/contract/historical.js';
import { drainLiveTable, liveCheckpoint } from '../../src/sync/history-streams.js';
import { startFaultProxy } from '../helpers/fault-proxy.js';
import { startTestService, TEST_KEY, type TestService } from '../helpers/service.js';
import { servedPages } from '../helpers/sync-fixtures.js';
import { TEMPLATE_START } from '../helpers/world-template.js';

const HOUR = 3_600_000;
const METAR: HistoricalTable = 'metar_observations_history';
const MKTA: HistoricalTable = 'mkta_buckets_history';
const context = { now: new Date(TEMPLATE_START), historyHours: 48 };
/** now (the template's 21st 12:00Z) less history_hours (48): the first window's start */
const SINCE = '2026-11-19T12:00:00.000Z';

let svc: TestService;
let proxy: Awaited<ReturnType<typeof startFaultProxy>>;
let client: ApiClient;
let cache: Cache;
let files = 0;
const root = mkdtempSync(join(tmpdir(), 'svc-live-faults-'));

beforeAll(async () => {
  svc = await startTestService({ tickMs: 24 * HOUR });
  proxy = await startFaultProxy(svc.baseUrl);
  client = new ApiClient({ baseUrl: proxy.baseUrl, apiKey: TEST_KEY, retry: { attempts: 1 } });
});
beforeEach(() => {
  cache?.close();
  cache = openCache(join(root, `cache-${++files}.db`));
  proxy.setPlan(() => 'pass');
  proxy.setRewrite(undefined);
  proxy.requests.length = 0;
});
afterAll(async () => {
  await client.close();
  cache.close();
  await proxy.close();
  await svc.close();
  rmSync(root, { recursive: true, force: true });
});

const stored = (table: HistoricalTable) =>
  cache.export.rows(`historical/${table}`).map((text) => JSON.parse(text) as Record<string, unknown>);
const isPage = (table: string, page: number) => (path: string) =>
  path.includes(`/historical/${table}?`) && (page === 1) === !path.includes('cursor=');

describe('bad input on a live history stream', () => {
  it('stores a row that has only the promised fields (id, city_id, local_date)', async () => {
    proxy.setRewrite((path, body) => {
      if (!isPage(METAR, 1)(path)) return body;
      const [first, ...rest] = body.data;
      return { ...body, data: [{ id: first.id, city_id: first.city_id, local_date: first.local_date }, ...rest] };
    });
    // every reading of the first window, as the service serves it
    const n = (await servedPages(svc, METAR, SINCE)).flat().length;
    expect(await drainLiveTable(client, cache, METAR, context)).toEqual({ fetched: n, inserted: n, updated: 0 });
    const bare = stored(METAR).filter((r) => r.observed_at === undefined);
    expect(bare).toHaveLength(1);
    expect(Object.keys(bare[0] as object)).toEqual(['id', 'city_id', 'local_date']);
  });

  it('refuses a page with a price outside 0..1, naming endpoint and field, and stores nothing of it', async () => {
    proxy.setRewrite((path, body) => {
      if (!isPage(MKTA, 1)(path)) return body;
      body.data[3].yes_price = 1.2;
      return body;
    });
    const error = await drainLiveTable(client, cache, MKTA, context).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidResponse);
    expect((error as Error).message).toMatch(/^GET \/historical\/mkta_buckets_history.*\/data\/3\/yes_price/);
    expect(stored(MKTA)).toEqual([]);
    expect(cache.streams.checkpoint(liveCheckpoint(MKTA))).toBeUndefined();
  });

  it('refuses a METAR reading that is not a number on a later page; the pages before stay, the drain resumes', async () => {
    proxy.setRewrite((path, body) => {
      if (!isPage(METAR, 2)(path)) return body;
      body.data[0].temp_c = 'M';
      return body;
    });
    const [first, ...later] = await servedPages(svc, METAR, SINCE);
    // a page 2 to break: the window is more than one page
    expect(later.length).toBeGreaterThan(0);
    const error = await drainLiveTable(client, cache, METAR, context).catch((e: unknown) => e);
    expect((error as Error).message).toMatch(/^GET \/historical\/metar_observations_history.*\/data\/0\/temp_c/);
    // page 1 (the newest 1000) is stored, the later ones not; the checkpoint holds the drain where it stopped
    expect(stored(METAR).map((r) => r.id)).toEqual(first?.map((r) => r.id));
    const saved = JSON.parse(cache.streams.checkpoint(liveCheckpoint(METAR)) as string);
    expect(saved.since).toBe(SINCE);

    // fixed at the source: the next pass finishes that drain (same since, from its cursor), nothing skipped
    proxy.setRewrite(undefined);
    proxy.requests.length = 0;
    const rest = later.flat().length;
    expect(await drainLiveTable(client, cache, METAR, context)).toEqual({ fetched: rest, inserted: rest, updated: 0 });
    expect(proxy.requests.map((r) => r.path.replace(/&cursor=[^&]+/, ''))).toEqual(
      later.map(() => `/api/public/v1/historical/${METAR}?since=2026-11-19T12%3A00%3A00.000Z&limit=1000`),
    );
    expect(proxy.requests[0]?.path).toContain(`&cursor=${saved.cursor}&`);
    expect(stored(METAR)).toHaveLength((first?.length ?? 0) + rest);
    expect(cache.streams.checkpoint(liveCheckpoint(METAR))).toBe('done');
  });
});
