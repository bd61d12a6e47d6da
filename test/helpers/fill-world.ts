import { openStore } from '../../src/server/store/open-store.js';
import { WorldStore } from '../../src/server/store/world-store.js';
import { loadCities } from '../../src/server/world/cities.js';
import { World } from '../../src/server/world/world.js';

/** Fills a world of `seed` (30 days of history up to `start`) into `dir`, checkpointed so a plain copy of it is whole. */
export function fillWorld(dir: string, seed: number, start: number): void {
  const db = openStore(dir);
  new World(new WorldStore(db), loadCities(), seed).initialise(start);
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
}

// run as a script (`node --import tsx fill-world.ts <dir> <seed> <start>`): the global setup's second world
if (process.argv[1]?.endsWith('fill-world.ts')) {
  const [dir, seed, start] = process.argv.slice(2);
  fillWorld(dir as string, Number(seed), Number(start));
}
