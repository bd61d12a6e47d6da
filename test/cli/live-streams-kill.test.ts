import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestService, TEST_KEY, type TestService } from '../helpers/service.js';
import { TEMPLATE_START } from '../helpers/world-template.js';
import { CLI } from './run-cli.js';

const HOUR = 3_600_000;
const TABLE = 'mkta_buckets_history';
const STREAM = `live/${TABLE}`;
/** The longest first window (30 days): the whole of the frozen test world's month. */
const HISTORY_HOURS = 720;
/** The CLI's wall clock, set to the template world's instant by a preload (the world is frozen there). */
const WORLD_CLOCK = fileURLToPath(new URL('../helpers/world-clock.mjs', import.meta.url));

const root = mkdtempSync(join(tmpdir(), 'svc-live-kill-'));
const dbFile = join(root, 'cache.db');
const env = {
  XDG_CONFIG_HOME: join(root, 'config'),
  XDG_DATA_HOME: join(root, 'data'),
  XDG_CACHE_HOME: join(root, 'cache-home'),
  XDG_STATE_HOME: join(root, 'state'),
  WORLD_CLOCK_START: new Date(TEMPLATE_START).toISOString(),
};
let svc: TestService;

beforeAll(async () => {
  svc = await startTestService({ tickMs: 24 * HOUR });
  mkdirSync(join(env.XDG_CONFIG_HOME, 'svc-monitor'), { recursive: true });
  writeFileSync(
    join(env.XDG_CONFIG_HOME, 'svc-monitor', 'config.json'),
    JSON.stringify({ history_hours: HISTORY_HOURS }),
    {
      mode: 0o600,
    },
  );
});
afterAll(async () => {
  await svc?.close();
  rmSync(root, { recursive: true, force: true });
});

function startSync(): { child: ChildProcess; stderr: () => string; exited: Promise<NodeJS.Signals | number | null> } {
  const args = ['sync', '--once', '--json', '--base-url', svc.baseUrl, '--api-key', TEST_KEY, '--db', dbFile];
  const child = spawn(process.execPath, ['--import', WORLD_CLOCK, CLI, ...args], {
    env: { ...process.env, ...env },
    stdio: 'pipe',
  });
  let stderr = '';
  child.stderr?.on('data', (d) => {
    stderr += d;
  });
  child.stdout?.resume();
  const exited = new Promise<NodeJS.Signals | number | null>((done) =>
    child.on('close', (code, signal) => done(signal ?? code)),
  );
  return { child, stderr: () => stderr, exited };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const checkpointOf = (db: Database.Database) =>
  db.prepare('SELECT value FROM checkpoints WHERE stream = ?').pluck().get(STREAM) as string | undefined;
/**
 * The server's ids of the table whose time is at or after `since`, descending (the API's order). The store keeps
 * whole-second instants and the API rounds a sub-second `since` up to the next second (query-bounds.ts): with the
 * CLI's clock starting on the world's instant, `since` can fall within the second of a snapshot (12:00:00.4Z),
 * which the API leaves out and a plain string comparison would keep.
 */
const serverIds = (since: string) =>
  svc.service.db
    .prepare(`SELECT id FROM h_${TABLE} WHERE t >= ? ORDER BY id DESC`)
    .pluck()
    .all(new Date(Math.ceil(Date.parse(since) / 1000) * 1000).toISOString().replace('.000Z', 'Z')) as number[];
const cachedIds = (db: Database.Database) =>
  db.prepare(`SELECT -rid FROM h_${TABLE} ORDER BY rid`).pluck().all() as number[];

it('SIGKILL of sync in the middle of a live stream drain, then a rerun: no gap and no duplicate', async () => {
  // 1. run until the mkta drain has stored some pages and has more to go, then SIGKILL
  const run = startSync();
  let killedAt: { since: string; cursor: string } | undefined;
  let finished = false;
  void run.exited.then(() => {
    finished = true;
  });
  let reader: Database.Database | undefined;
  while (!finished && !killedAt) {
    try {
      if (!reader && existsSync(`${dbFile}-wal`)) reader = new Database(dbFile, { readonly: true });
      const saved = reader ? checkpointOf(reader) : undefined;
      if (
        saved?.startsWith('{') &&
        (reader?.prepare(`SELECT count(*) FROM h_${TABLE}`).pluck().get() as number) >= 5000
      ) {
        run.child.kill('SIGKILL');
        killedAt = JSON.parse(saved);
      }
    } catch {
      // not migrated yet
    }
    await sleep(3);
  }
  reader?.close();
  expect(await run.exited, run.stderr()).toBe('SIGKILL');
  const { since, cursor } = killedAt as { since: string; cursor: string };
  // the window is the 30 days before the world's instant: the whole template month
  const expected = serverIds(since);
  expect(expected.length).toBeGreaterThan(20_000);

  // what the kill left: the newest pages, no gap above the checkpoint's cursor (a page is one transaction with it)
  let db = new Database(dbFile, { readonly: true });
  const afterKill = cachedIds(db);
  const committed = checkpointOf(db) as string;
  db.close();
  const { cursor: storedCursor } = JSON.parse(committed) as { cursor: string };
  expect(Number(storedCursor)).toBeLessThanOrEqual(Number(cursor));
  const above = expected.filter((id) => id >= Number(storedCursor));
  expect(afterKill.slice(0, above.length)).toEqual(above);
  expect(afterKill.length).toBeLessThan(expected.length);

  // 2. a rerun finishes that drain (same since, from the cursor) and ends equal to the server's window
  const rerun = startSync();
  expect(await rerun.exited, rerun.stderr()).toBe(0);
  db = new Database(dbFile, { readonly: true });
  try {
    expect(checkpointOf(db)).toBe('done');
    const final = cachedIds(db);
    expect(new Set(final).size).toBe(final.length);
    expect(final).toEqual(expected);
  } finally {
    db.close();
  }
});
