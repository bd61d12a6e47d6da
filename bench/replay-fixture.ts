import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MIGRATIONS } from '../src/cache/db/migrations.js';
import { openCache } from '../src/cache/index.js';
import { ApiClient } from '../src/client/api-client.js';
import { HISTORICAL_TABLES } from '../src/contract/historical.js';
import { startService } from '../src/server/service.js';
import { backfill } from '../src/sync/backfill.js';
import { SyncEngine } from '../src/sync/sync-engine.js';
import { BENCH_KEY, BENCH_START, prepareWorld } from './prepare-world.js';

/** Bump when what the fixture holds changes (the schema version and the world's start are part of the stamp too). */
const FIXTURE_VERSION = 1;

const FIXTURES = fileURLToPath(new URL('./fixtures/replay/', import.meta.url));

/** The 30-day reference world in a cache, as `sync --once --backfill all` leaves it. */
async function build(path: string): Promise<void> {
  const service = await startService({
    dataDir: prepareWorld(0),
    port: 0,
    apiKey: BENCH_KEY,
    rateLimitPerMinute: 1_000_000_000,
    tickMs: 3_600_000,
    logLevel: 'silent',
  });
  const cache = openCache(path);
  const client = new ApiClient({ baseUrl: service.baseUrl, apiKey: BENCH_KEY });
  try {
    await new SyncEngine({ client, cache, now: () => new Date(BENCH_START) }).runOnce();
    await backfill(client, cache, HISTORICAL_TABLES, {});
  } finally {
    await client.close();
    await service.close();
  }
  cache.checkpoint();
  cache.close();
}

const stampOf = (schema: number) => JSON.stringify({ version: FIXTURE_VERSION, schema, start: BENCH_START });

/**
 * The 30-day cache, copied to `path`. Built once into bench/fixtures/replay/ (git ignores *.db) and reused while its
 * stamp matches: building takes a minute or more.
 */
export async function replayCache(path: string): Promise<{ built: boolean }> {
  mkdirSync(FIXTURES, { recursive: true });
  const stampPath = join(FIXTURES, 'stamp.json');
  const stamp = stampOf(MIGRATIONS.length);
  const fixture = join(FIXTURES, 'world.db');
  const current = existsSync(stampPath) ? readFileSync(stampPath, 'utf8') : '';
  const built = current !== stamp || !existsSync(fixture);
  if (built) {
    rmSync(stampPath, { force: true });
    for (const s of ['', '-wal', '-shm']) rmSync(fixture + s, { force: true });
    await build(fixture);
    writeFileSync(stampPath, stamp);
  }
  copyFileSync(fixture, path);
  return { built };
}
