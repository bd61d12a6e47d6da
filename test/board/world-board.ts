import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { openCache } from '../../src/cache/index.js';
import { ApiClient } from '../../src/client/api-client.js';
import { backfill } from '../../src/sync/backfill.js';
import { SyncEngine } from '../../src/sync/sync-engine.js';
import { type CliResult, runCli } from '../cli/run-cli.js';
import { startTestService, TEST_KEY, type TestService } from '../helpers/service.js';

const HOUR = 3_600_000;

/** The reference service's frozen template world, a cache synced from it, and the built CLI's `export board` on it. */
export interface WorldBoard {
  svc: TestService;
  /**
   * The built CLI's `export board` on the cache, on the service's clock: the offset the sync kept, so its now lies in
   * `nowMs` (the host's clock before and after the run, plus that offset). The world stands still meanwhile.
   */
  exportBoard(...args: string[]): Promise<CliResult & { nowMs: [number, number] }>;
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
  let offset: number;
  try {
    const summary = await new SyncEngine({ client, cache }).runOnce();
    expect(summary.errors).toEqual([]);
    if (backfillSince !== undefined) await backfill(client, cache, ['forecast_history'], { since: iso(backfillSince) });
    offset = cache.streams.clockOffset() as number;
    expect(offset).not.toBeNull();
  } finally {
    await client.close();
    cache.close();
  }
  return {
    svc,
    exportBoard: async (...args) => {
      const before = Date.now();
      const out = await runCli(['export', 'board', '--db', db, ...args], { XDG_CONFIG_HOME: join(root, 'config') });
      return { ...out, nowMs: [before + offset, Date.now() + offset] };
    },
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
