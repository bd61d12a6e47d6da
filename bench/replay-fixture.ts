import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MIGRATIONS } from '../src/cache/db/migrations.js';
import { openCache } from '../src/cache/index.js';
import { BENCH_START } from './prepare-world.js';
import { syncWorldInto } from './synced-world.js';

/** Bump when what the fixture holds changes (the schema version and the world's start are part of the stamp too). */
const FIXTURE_VERSION = 1;

const FIXTURES = fileURLToPath(new URL('./fixtures/replay/', import.meta.url));

/** The 30-day reference world in a cache, as `sync --once --backfill all` leaves it. */
async function build(path: string): Promise<void> {
  const cache = openCache(path);
  await syncWorldInto(cache, () => new Date(BENCH_START));
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
