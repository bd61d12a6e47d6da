import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { openStore } from '../../src/server/store/open-store.js';
import { WorldStore } from '../../src/server/store/world-store.js';
import { loadCities } from '../../src/server/world/cities.js';
import { World } from '../../src/server/world/world.js';
import { TEMPLATE_SEED, TEMPLATE_START } from './world-template.js';

declare module 'vitest' {
  export interface ProvidedContext {
    templateDir: string;
  }
}

/** Fills one world (30 days of history) once; each test copies it instead of paying for the fill again. */
export default function setup(project: TestProject): () => void {
  const root = mkdtempSync(join(tmpdir(), 'svc-template-'));
  const dir = join(root, 'server');
  const db = openStore(dir);
  new World(new WorldStore(db), loadCities(), TEMPLATE_SEED).initialise(TEMPLATE_START);
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
  project.provide('templateDir', dir);
  return () => rmSync(root, { recursive: true, force: true });
}
