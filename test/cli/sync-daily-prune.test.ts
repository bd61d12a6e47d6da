import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCache } from '../../src/cache/index.js';
import { fillTwentyDays } from '../cache/twenty-days.js';
import { PATIENCE_MS } from '../helpers/patience.js';
import { startTestService, TEST_KEY, type TestService } from '../helpers/service.js';
import { TEMPLATE_START } from '../helpers/world-template.js';
import { CLI } from './run-cli.js';

/**
 * The sync daemon prunes once a day of the service's clock (DESIGN 3 `cache prune`). Its cache holds the twenty
 * hand-built days of cache/twenty-days.ts (2026-11-05 to 11-24) and the service's clock of the test world,
 * 2026-11-21T12:00Z (kept in the cache as a sync would have, so the first look is on it), so with 14 days kept whole
 * the cutoff is 2026-11-07T12:00Z and the hours thinned end from 01:00Z on 11-05 to 12:00Z on 11-07: 2 x 24 + 12 =
 * 60 hours, each series keeping one row of its two. A series a city: 6 bucket series a venue (2 cities x 3
 * buckets), 2 each of wxb and pws (wxa's two rows an hour are two series), 2 of forecast_history, 6 of /current
 * (3 sources), 4 of /forecasts (2 layers): 60 x (12 + 4 + 2 + 6 + 4) = 1,680 rows (the daemon's clock a moment
 * before 12:00Z: 59 hours, 1,652).
 */
let svc: TestService;
const root = mkdtempSync(join(tmpdir(), 'svc-sync-prune-'));
const env = { XDG_DATA_HOME: join(root, 'data'), XDG_CONFIG_HOME: join(root, 'config'), SVC_DB: '' };
const db = join(root, 'cache.db');

beforeAll(async () => {
  svc = await startTestService();
  mkdirSync(join(env.XDG_CONFIG_HOME, 'svc-monitor'), { recursive: true, mode: 0o700 });
  writeFileSync(
    join(env.XDG_CONFIG_HOME, 'svc-monitor', 'config.json'),
    JSON.stringify({ base_url: svc.baseUrl, api_key: TEST_KEY }),
    { mode: 0o600 },
  );
  const cache = openCache(db);
  fillTwentyDays(cache);
  cache.streams.recordClockOffset(TEMPLATE_START - Date.now());
  cache.close();
});
afterAll(async () => {
  await svc.close();
  rmSync(root, { recursive: true, force: true });
});

describe('the sync daemon', () => {
  it('prunes the cache once a day of the service’s clock, in one stamped line', async () => {
    const child: ChildProcess = spawn(process.execPath, [CLI, 'sync', '--db', db], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr?.on('data', (d) => {
      stderr += d;
    });
    const exited = new Promise<number | null>((done) => child.on('close', done));
    try {
      const end = Date.now() + PATIENCE_MS;
      while (!stderr.includes('retention: ')) {
        if (Date.now() > end) throw new Error(`no retention line; stderr: ${stderr}`);
        await new Promise((r) => setTimeout(r, 50));
      }
      const lines = stderr.split('\n').filter((l) => l.includes('retention: '));
      expect(lines).toHaveLength(1);
      const said = /^\S+Z sync: retention: thinned ([\d,]+) rows older than (\S+) \(detail_days 14\); /.exec(
        lines[0] as string,
      );
      // the service's clock is its Date header's, whole seconds: the cutoff can fall a moment before 12:00Z, and then
      // the hour ending 12:00Z is not thinned yet (59 hours, 1,652 rows)
      const cutoff = Date.parse(said?.[2] ?? '');
      expect(Math.abs(cutoff - Date.parse('2026-11-07T12:00:00Z'))).toBeLessThan(PATIENCE_MS);
      expect(said?.[1]).toBe(cutoff >= Date.parse('2026-11-07T12:00:00Z') ? '1,680' : '1,652');
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      child.kill('SIGKILL');
    }
  });
});
