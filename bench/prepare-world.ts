import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '../src/server/store/open-store.js';
import { WorldStore } from '../src/server/store/world-store.js';
import { loadCities } from '../src/server/world/cities.js';
import { World } from '../src/server/world/world.js';

export const BENCH_START = Date.parse('2026-11-21T12:00:00Z');
export const BENCH_KEY = 'bench-key-0123456789';

/** A data dir with the usual 30-day world, plus `extraMetarRows` synthetic METAR rows (newest ids). */
export function prepareWorld(extraMetarRows = 0): string {
  const dir = join(mkdtempSync(join(tmpdir(), 'svc-bench-')), 'server');
  const db = openStore(dir);
  new World(new WorldStore(db), loadCities(), 1).initialise(BENCH_START);
  if (extraMetarRows > 0) {
    const sample = JSON.parse(
      db.prepare('SELECT json FROM h_metar_observations_history LIMIT 1').pluck().get() as string,
    );
    const firstId = (db.prepare('SELECT max(id) FROM h_metar_observations_history').pluck().get() as number) + 1;
    const insert = db.prepare('INSERT INTO h_metar_observations_history (id, city_id, t, json) VALUES (?, ?, ?, ?)');
    db.transaction(() => {
      for (let i = 0; i < extraMetarRows; i++) {
        const id = firstId + i;
        insert.run(id, sample.city_id, sample.observed_at, JSON.stringify({ ...sample, id }));
      }
    })();
  }
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
  return dir;
}
