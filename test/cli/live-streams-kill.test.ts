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

/**
 * Runs `sync --once` on a fresh cache until the mkta drain has stored some pages and has more to go, then SIGKILLs
 * it. Resolves with the drain's checkpoint when the kill landed inside the drain; undefined when the drain was over
 * first (a starved test process can look too late), which the caller takes as "try again".
 */
async function killMidDrain(): Promise<{ since: string; cursor: string } | undefined> {
  for (const suffix of ['', '-wal', '-shm']) rmSync(`${dbFile}${suffix}`, { force: true });
  const run = startSync();
  let killed = false;
  let finished = false;
  void run.exited.then(() => {
    finished = true;
  });
  let reader: Database.Database | undefined;
  while (!finished && !killed) {
    try {
      if (!reader && existsSync(`${dbFile}-wal`)) reader = new Database(dbFile, { readonly: true });
      const saved = reader ? checkpointOf(reader) : undefined;
      if (
        saved?.startsWith('{') &&
        (reader?.prepare(`SELECT count(*) FROM h_${TABLE}`).pluck().get() as number) >= 5000
      ) {
        run.child.kill('SIGKILL');
        killed = true;
      }
    } catch {
      // not migrated yet
    }
    await sleep(3);
  }
  reader?.close();
  const exit = await run.exited;
  if (!killed) {
    expect(exit, run.stderr()).toBe(0);
    return undefined;
  }
  expect(exit, run.stderr()).toBe('SIGKILL');
  // what the kill left: a drain under way (its checkpoint a cursor), or one that ended just before it ('done')
  const db = new Database(dbFile, { readonly: true });
  try {
    const committed = checkpointOf(db);
    return committed?.startsWith('{') ? (JSON.parse(committed) as { since: string; cursor: string }) : undefined;
  } finally {
    db.close();
  }
}

it('SIGKILL of sync in the middle of a live stream drain, then a rerun: no gap and no duplicate', async () => {
  // 1. a run killed in the middle of the mkta drain (tried again until the kill lands inside it)
  let killedAt: { since: string; cursor: string } | undefined;
  for (let tries = 0; tries < 5 && !killedAt; tries++) killedAt = await killMidDrain();
  expect(killedAt, 'the kill landed inside the drain in one of five tries').toBeDefined();
  const { since, cursor: storedCursor } = killedAt as { since: string; cursor: string };
  // the window is the 30 days before the world's instant: the whole template month
  const expected = serverIds(since);
  expect(expected.length).toBeGreaterThan(20_000);

  // what the kill left: the newest pages, no gap above the checkpoint's cursor (a page is one transaction with it)
  let db = new Database(dbFile, { readonly: true });
  const afterKill = cachedIds(db);
  db.close();
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
