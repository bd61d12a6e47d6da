import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { type Cache, openCache } from '../../src/cache/index.js';
import { startTui } from '../e2e/terminal.js';
import { startTestService, TEST_KEY, type TestService } from '../helpers/service.js';
import { TEMPLATE_START } from '../helpers/world-template.js';
import { runCli } from './run-cli.js';

/**
 * DESIGN 4 "the monitor's clock": every market "now" of the monitor is the service's, read from its answers' `Date`,
 * whatever this machine's clock says. Through the built CLI against a real reference service: one whose world runs
 * an hour a second from a week before this machine's clock, and one standing still ten minutes ahead of a host clock
 * set back by world-clock.mjs (the children's Date only; nothing sleeps).
 */
const WORLD_CLOCK = fileURLToPath(new URL('../helpers/world-clock.mjs', import.meta.url));
const HOUR = 3_600_000;
const root = mkdtempSync(join(tmpdir(), 'service-clock-'));
const services: TestService[] = [];
afterAll(async () => {
  for (const svc of services) await svc.close();
  rmSync(root, { recursive: true, force: true });
});

const envOf = (svc: TestService, hostStart?: number): NodeJS.ProcessEnv => ({
  SVC_BASE_URL: svc.baseUrl,
  SVC_API_KEY: TEST_KEY,
  XDG_CONFIG_HOME: join(root, 'config'),
  ...(hostStart === undefined
    ? {}
    : { NODE_OPTIONS: `--import ${WORLD_CLOCK}`, WORLD_CLOCK_START: new Date(hostStart).toISOString() }),
});

/** The newest desk run the cache holds of each city (the `forecasts` poll). */
/** The city-days the cache holds a fusion lock of, as `city_id local_date`. */
function lockedDays(db: string): Set<string> {
  const file = new Database(db, { readonly: true });
  try {
    const rows = file.prepare('SELECT city_id, local_date FROM fusion_locks').all() as {
      city_id: string;
      local_date: string;
    }[];
    return new Set(rows.map((r) => `${r.city_id} ${r.local_date}`));
  } finally {
    file.close();
  }
}

function newestDesk(db: string): Map<string, { local_date: string; predicted_max_c: number; fetched_at: string }> {
  const cache: Cache = openCache(db, 'read');
  try {
    return new Map(
      cache.resources.cities().map((c) => {
        const run = cache.market.forecasts(c.city_id).find((f) => f.layer === 'svc_pro_forecast') as any;
        return [c.city_id, run];
      }),
    );
  } finally {
    cache.close();
  }
}

describe('the monitor’s clock is the service’s', () => {
  it('prices every city of a service whose world runs an hour a second, a week behind this machine', async () => {
    const svc = await startTestService({ speed: 3600, tickMs: 100 });
    services.push(svc);
    const db = join(root, 'fast.db');
    const sync = await runCli(['sync', '--once', '--db', db], envOf(svc));
    expect([sync.code, sync.stderr]).toEqual([0, '']);
    const desks = newestDesk(db);
    const out = await runCli(['export', 'board', '--db', db], envOf(svc));
    expect([out.code, out.stderr]).toEqual([0, '']);
    const board = JSON.parse(out.stdout) as Record<string, any>[];
    expect(board).toHaveLength(13);
    let priced = 0;
    for (const city of board) {
      const desk = desks.get(city.city_id);
      if (desk && desk.local_date > city.local_date) {
        // past the day's peak the desk forecasts the next day (DESIGN 5): the board shows the day passed, priced by a
        // run of its own that the sync caught before the switch (hours of world time pass during it) or by none, never
        // by the next day's run
        // `passed`, or `peak` while the cache holds no lock of the day: the sync fetches the locks and the forecasts at
        // world instants hours apart (more on a loaded machine), and without its lock a day's peak is still to come
        const locked = lockedDays(db).has(`${city.city_id} ${city.local_date}`);
        expect([city.phase, locked], city.city_id).toEqual(locked ? ['passed', true] : [city.phase, false]);
        expect(['peak', 'passed'], city.city_id).toContain(city.phase);
        expect(city.mu_c, city.city_id).not.toBe(desk.predicted_max_c);
        continue;
      }
      if (city.local_date !== desk?.local_date) {
        // hours of world time pass during the sync: a city whose midnight passed after the desk's newest run waits
        // for its new day's first run (within the day's first half hour), and prices nothing till then
        expect([city.local_time < '01:00', city.mu_c], city.city_id).toEqual([true, null]);
        continue;
      }
      // the board's market day is the service's, whose newest desk run it prices
      priced++;
      expect(city.mu_c, city.city_id).toBe(desk?.predicted_max_c);
      expect(city.buckets.length, city.city_id).toBeGreaterThan(0);
      for (const b of city.buckets) expect(typeof b.p, `${city.city_id} ${b.bucket_label}`).toBe('number');
    }
    expect(priced).toBeGreaterThan(0);
    // the newest run's instant is no later than the monitor's now
    const newest = [...desks.values()]
      .map((d) => d.fetched_at)
      .sort()
      .at(-1) as string;
    const at = await runCli(['export', 'board', '--at', newest, '--db', db], envOf(svc));
    expect([at.code, at.stderr]).toEqual([0, '']);
  });

  it('shows local times, phases and ages by the service’s clock when this machine’s is ten minutes behind', async () => {
    // the world stands at 15:00:30Z (10:00 in New York: its peak began); the host reads 14:50:30Z
    const svc = await startTestService({ tickMs: 24 * HOUR });
    services.push(svc);
    const worldAt = TEMPLATE_START + 3 * HOUR + 30_000;
    // the host clock of the sync below starts ten minutes behind the world when its process starts, and runs on
    // while the world stands: the offset kept from its last answer is ten minutes less however long it took
    const syncFrom = performance.now();
    svc.service.world.advanceTo(worldAt);
    const host = worldAt - 10 * 60_000;
    const db = join(root, 'behind.db');
    const sync = await runCli(['sync', '--once', '--db', db], envOf(svc, host));
    expect([sync.code, sync.stderr]).toEqual([0, '']);
    const syncSeconds = (performance.now() - syncFrom) / 1000;
    // the newest instant the cache holds is the service's now, not after it
    const at = await runCli(['export', 'board', '--at', '2026-11-21T15:00:00Z', '--db', db], envOf(svc, host));
    expect([at.code, at.stderr]).toEqual([0, '']);
    const board = JSON.parse((await runCli(['export', 'board', '--db', db], envOf(svc, host))).stdout);
    const nyc = board.find((c: { city_id: string }) => c.city_id === 'nyc');
    expect([nyc.local_time, nyc.phase]).toEqual(['10:00', 'peak']);
    // the screen, offline on that cache: the offset named, New York at 10:00, every stream a few seconds old
    const tui = startTui(['--offline', '--db', db, '--city', 'nyc'], envOf(svc, host), { cols: 200, rows: 30 });
    try {
      const screen = await tui.waitFor(/clock \+\d+m\d\ds/);
      const [, minutes, seconds] = screen.match(/clock \+(\d+)m(\d\d)s/) ?? [];
      const offset = Number(minutes) * 60 + Number(seconds);
      // ten minutes, less the time the sync took (a second more either way: the Date header's whole seconds)
      expect(offset).toBeLessThanOrEqual(601);
      expect(offset).toBeGreaterThanOrEqual(600 - syncSeconds - 1);
      expect(screen).toMatch(/nyc Sat 10:00/);
      expect(screen).toMatch(/sync cty \ds cur \ds fc \ds/);
    } finally {
      tui.kill();
      await tui.exited;
    }
  });
});
