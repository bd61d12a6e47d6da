import type { Cache } from '../src/cache/index.js';
import { ApiClient } from '../src/client/api-client.js';
import { HISTORICAL_TABLES } from '../src/contract/historical.js';
import { startService } from '../src/server/service.js';
import { backfill } from '../src/sync/backfill.js';
import { SyncEngine } from '../src/sync/sync-engine.js';
import { BENCH_KEY, prepareWorld } from './prepare-world.js';

/**
 * The 30-day reference world synced into `cache` as `sync --once --backfill all` leaves it: the bench fixtures'
 * common start (a service on a loopback port over the prepared world, one pass, every historical table).
 */
export async function syncWorldInto(cache: Cache, now?: () => Date): Promise<void> {
  const service = await startService({
    dataDir: prepareWorld(0),
    port: 0,
    apiKey: BENCH_KEY,
    rateLimitPerMinute: 1_000_000_000,
    tickMs: 3_600_000,
    logLevel: 'silent',
  });
  const client = new ApiClient({ baseUrl: service.baseUrl, apiKey: BENCH_KEY });
  try {
    await new SyncEngine({ client, cache, ...(now ? { now } : {}) }).runOnce();
    await backfill(client, cache, HISTORICAL_TABLES, {});
  } finally {
    await client.close();
    await service.close();
  }
}
