import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MIGRATIONS } from '../src/cache/db/migrations.js';
import { openCache } from '../src/cache/index.js';
import { HISTORICAL_TABLES } from '../src/contract/historical.js';
import { BENCH_START } from './prepare-world.js';
import { syncWorldInto } from './synced-world.js';
import { growCache } from './tui-cache.js';

/** What the big cache holds beyond the synced 30-day world. */
export const ROWS = 1_000_000;
export const POSITIONS = 10_000;

/** 30 days of every historical table, as `sync --backfill all` leaves them (issue 21's 30-day cache). */
const HISTORY = HISTORICAL_TABLES;

/**
 * Bump when what the fixture holds changes; the cache's schema version and the figures above are part of the stamp
 * too, so a stale fixture is rebuilt rather than measured.
 */
const FIXTURE_VERSION = 3;

const FIXTURES = fileURLToPath(new URL('./fixtures/tui-render/', import.meta.url));

/** A cache synced from a fresh 30-day world, then grown to 1M METAR rows and 10k open positions; and an empty one. */
async function build(dir: string): Promise<void> {
  const cache = openCache(join(dir, 'big.db'));
  await syncWorldInto(cache);
  growCache(cache, ROWS, POSITIONS);
  cache.checkpoint();
  cache.close();
  openCache(join(dir, 'empty.db')).close();
}

const stampOf = (schema: number) =>
  JSON.stringify({ version: FIXTURE_VERSION, schema, rows: ROWS, positions: POSITIONS, start: BENCH_START, HISTORY });

/**
 * The two caches, copied into `dir` (the monitor may write to its cache; the fixture stays as built). Built once into
 * bench/fixtures/tui-render/ (git ignores *.db) and reused while its stamp matches: building takes a minute or more.
 */
export async function tuiCaches(dir: string): Promise<{ big: string; empty: string; built: boolean }> {
  mkdirSync(FIXTURES, { recursive: true });
  const stampPath = join(FIXTURES, 'stamp.json');
  const stamp = stampOf(MIGRATIONS.length);
  const current = existsSync(stampPath) ? readFileSync(stampPath, 'utf8') : '';
  const built = current !== stamp || !existsSync(join(FIXTURES, 'big.db'));
  if (built) {
    rmSync(stampPath, { force: true });
    for (const name of ['big.db', 'empty.db'])
      for (const s of ['', '-wal', '-shm']) rmSync(join(FIXTURES, name + s), { force: true });
    await build(FIXTURES);
    writeFileSync(stampPath, stamp);
  }
  const out = { big: join(dir, 'big.db'), empty: join(dir, 'empty.db') };
  copyFileSync(join(FIXTURES, 'big.db'), out.big);
  copyFileSync(join(FIXTURES, 'empty.db'), out.empty);
  return { ...out, built };
}
