import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { openCache } from '../../src/cache/index.js';
import { ApiClient } from '../../src/client/api-client.js';
import { backfill } from '../../src/sync/backfill.js';
import { SyncEngine } from '../../src/sync/sync-engine.js';
import { type CliResult, runCli } from '../cli/run-cli.js';
import { startTestService, TEST_KEY, type TestService } from '../helpers/service.js';
import { TEMPLATE_START } from '../helpers/world-template.js';

const HOUR = 3_600_000;
const WORLD_CLOCK = fileURLToPath(new URL('../helpers/world-clock.mjs', import.meta.url));

/** The reference service's frozen template world, a cache synced from it, and the built CLI's `export board` on it. */
export interface WorldBoard {
  svc: TestService;
  /** The built CLI's `export board` on the cache, its wall clock at the world's instant (world-clock.mjs). */
  exportBoard(...args: string[]): Promise<CliResult>;
  /** Every row of a historical table for one city within [since, until], as the API serves it (next_cursor followed). */
  history(table: string, cityId: string, since: string | number, until?: number): Promise<Record<string, any>[]>;
  close(): Promise<void>;
}

const iso = (at: string | number) => (typeof at === 'string' ? at : new Date(at).toISOString());

/**
 * A real sync (one pass, at the world's instant) into a temp cache; `backfillSince`: `forecast_history` backfilled
 * from then too (the polls hold only the desk's newest run).
 */
export async function worldBoard(
  name: string,
  { backfillSince }: { backfillSince?: number } = {},
): Promise<WorldBoard> {
  const svc = await startTestService({ tickMs: 24 * HOUR });
  const root = mkdtempSync(join(tmpdir(), `${name}-`));
  const db = join(root, 'cache.db');
  const cache = openCache(db);
  const client = new ApiClient({ baseUrl: svc.baseUrl, apiKey: TEST_KEY });
  try {
    const summary = await new SyncEngine({ client, cache, now: () => new Date(TEMPLATE_START) }).runOnce();
    expect(summary.errors).toEqual([]);
    if (backfillSince !== undefined) await backfill(client, cache, ['forecast_history'], { since: iso(backfillSince) });
  } finally {
    await client.close();
    cache.close();
  }
  return {
    svc,
    exportBoard: (...args) =>
      runCli(['export', 'board', '--db', db, ...args], {
        NODE_OPTIONS: `--import ${WORLD_CLOCK}`,
        WORLD_CLOCK_START: new Date(TEMPLATE_START).toISOString(),
        XDG_CONFIG_HOME: join(root, 'config'),
      }),
    async history(table, cityId, since, until) {
      const rows: Record<string, any>[] = [];
      const bounds = `since=${iso(since)}${until === undefined ? '' : `&until=${iso(until)}`}`;
      let cursor: unknown = null;
      do {
        const page = await svc.get(
          `/historical/${table}?city_id=${cityId}&${bounds}&limit=1000${cursor === null ? '' : `&cursor=${cursor}`}`,
        );
        expect(page.status).toBe(200);
        rows.push(...page.body.data);
        cursor = page.body.next_cursor ?? null;
      } while (cursor !== null);
      return rows;
    },
    async close() {
      await svc.close();
      rmSync(root, { recursive: true, force: true });
    },
  };
}
