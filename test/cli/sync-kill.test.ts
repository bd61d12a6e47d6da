import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { HistoricalTable } from '../../src/contract/historical.js';
import { STRATEGY_FAMILIES, type StrategyFamily } from '../../src/contract/strategies.js';
import { LOCK_CHECKPOINT } from '../../src/sync/lock-poller.js';
import { startTestService, TEST_KEY, type TestService } from '../helpers/service.js';
import { insertExtraLocks, jsonById, seededRandom, testSeed } from '../helpers/sync-fixtures.js';
import { CLI } from './run-cli.js';

const HOUR = 3_600_000;
const PAGE = 1000; // the backfill's page size (the maximum)
/** Backfilled by every run; the big one first, so kills land in it. */
const TABLES: HistoricalTable[] = ['mkta_buckets_history', 'metar_observations_history', 'forecast_history'];
const backfillStream = (table: string) => `backfill/${table}?since=&until=`;
const STRATEGY_SQL: Record<StrategyFamily, string> = {
  no24: 's_no24',
  yescore: 's_yescore',
  'svc-max-picks': 's_svc_max_picks',
};

const root = mkdtempSync(join(tmpdir(), 'svc-sync-kill-'));
const dbFile = join(root, 'cache', 'cache.db');
const env = {
  XDG_CONFIG_HOME: join(root, 'config'),
  XDG_DATA_HOME: join(root, 'data'),
  XDG_CACHE_HOME: join(root, 'cache-home'),
  XDG_STATE_HOME: join(root, 'state'),
};
let svc: TestService;

/**
 * The server's rows (the world is frozen for the whole file: they change only when the test adds locks). Its
 * historical rows are compared in SQL, the server's store attached to the cache's connection (`server.h_*`): reading
 * the 206,000 bucket rows' JSON into maps took half this file's time, for the same comparison.
 */
const server = {
  /** ids of each table, descending (the API's order) */
  idsDesc: new Map<HistoricalTable, number[]>(),
  locks: new Map<string, string>(),
  newestLockedAt: '',
  strategies: new Map<StrategyFamily, Map<string, string>>(),
};

beforeAll(async () => {
  svc = await startTestService({ tickMs: 24 * HOUR });
  const db = svc.service.db;
  // a backlog of 20,000 settled locks, 700 sharing each locked_at (so 500-lock pages cut through every group), and
  // 50 open ones sharing an older instant, so every pass also drains resolutions
  const newest = Date.parse(db.prepare('SELECT max(locked_at) FROM fusion_locks').pluck().get() as string);
  insertExtraLocks(db, {
    count: 20_000,
    prefix: 'fl-backlog',
    resolved: true,
    lockedAt: (i) => iso(newest - Math.floor(i / 700) * 6 * HOUR),
  });
  insertExtraLocks(db, { count: 50, prefix: 'fl-open', resolved: false, lockedAt: () => iso(newest - 36 * HOUR) });
  for (const table of TABLES) {
    server.idsDesc.set(table, db.prepare(`SELECT id FROM h_${table} ORDER BY id DESC`).pluck().all() as number[]);
  }
  readServerLocks();
  for (const family of STRATEGY_FAMILIES) {
    server.strategies.set(family, jsonById(db, `SELECT id, json FROM ${STRATEGY_SQL[family]}`));
  }
});

function readServerLocks(): void {
  server.locks = jsonById(svc.service.db, 'SELECT id, json FROM fusion_locks');
  server.newestLockedAt = svc.service.db.prepare('SELECT max(locked_at) FROM fusion_locks').pluck().get() as string;
}

afterAll(async () => {
  await svc?.close();
  rmSync(root, { recursive: true, force: true });
});

interface Run {
  child: ChildProcess;
  output: { stdout: string; stderr: string };
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** `svc-monitor sync --once --json [--backfill ...]` of the built CLI against the test service, into `dbFile`. */
function startSync(withBackfill = true): Run {
  const backfill = withBackfill ? ['--backfill', TABLES.join(',')] : [];
  const args = ['sync', '--once', '--json', ...backfill, '--base-url', svc.baseUrl];
  const child = spawn(process.execPath, [CLI, ...args, '--api-key', TEST_KEY, '--db', dbFile], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output = { stdout: '', stderr: '' };
  child.stdout?.on('data', (d) => {
    output.stdout += d;
  });
  child.stderr?.on('data', (d) => {
    output.stderr += d;
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) =>
    child.on('close', (code, signal) => done({ code, signal })),
  );
  return { child, output, exited };
}

const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const openReadonly = () => new Database(dbFile, { readonly: true, fileMustExist: true });
/** The cache read-only, with the server's store attached as `server` (WAL: the running server is not blocked). */
function openWithServer(): Database.Database {
  const db = openReadonly();
  db.prepare('ATTACH DATABASE ? AS server').run(join(svc.dataDir, 'server.db'));
  return db;
}
const checkpoint = (db: Database.Database, stream: string) =>
  db.prepare('SELECT value FROM checkpoints WHERE stream = ?').pluck().get(stream) as string | undefined;
const lockCount = (db: Database.Database) => db.prepare('SELECT count(*) FROM fusion_locks').pluck().get() as number;
/** Rows of a table a backfill resumed at `cursor` fetches: the server's ids below it. */
const rowsBelow = (table: HistoricalTable, cursor: number) =>
  (server.idsDesc.get(table) ?? []).filter((id) => id < cursor).length;

/**
 * What a killed run left behind is consistent: an intact file; no id held twice and every key equal to its JSON's
 * id; every row exactly as the server has it; no gap behind any checkpoint (a backfill cursor has every id at or
 * above it stored; a finished backfill, every id; a lock checkpoint, every lock older than it).
 */
function expectConsistent(what: string): {
  backfill: Record<string, string | undefined>;
  lock?: string;
  locks: number;
} {
  if (!existsSync(dbFile)) return { backfill: {}, locks: 0 };
  const db = openWithServer();
  try {
    if (db.prepare("SELECT count(*) FROM main.sqlite_schema WHERE name = 'checkpoints'").pluck().get() === 0) {
      return { backfill: {}, locks: 0 }; // killed before the first migration committed
    }
    expect(db.pragma('main.quick_check', { simple: true }), what).toBe('ok');
    const backfill: Record<string, string | undefined> = {};
    for (const table of TABLES) {
      const [rows, distinct, wrongKey] = db
        .prepare(
          `SELECT count(*), count(DISTINCT json_extract(json, '$.id')), count(*) FILTER (WHERE rid != -json_extract(json, '$.id')) FROM main.h_${table}`,
        )
        .raw()
        .get() as [number, number, number];
      expect({ rows, distinct, wrongKey }, `${what}: ${table}`).toEqual({ rows, distinct: rows, wrongKey: 0 });
      // each held row against the server's row of its id (none there: unlike too)
      const wrong = db
        .prepare(
          `SELECT -c.rid FROM main.h_${table} c LEFT JOIN server.h_${table} s ON s.id = -c.rid
           WHERE s.json IS NOT c.json ORDER BY c.rid LIMIT 5`,
        )
        .pluck()
        .all();
      expect(wrong, `${what}: ${table} rows unlike the server's`).toEqual([]);
      const cursor = checkpoint(db, backfillStream(table));
      backfill[table] = cursor;
      if (cursor !== undefined) {
        // the server's ids at or above the checkpoint (all of them once done) that the cache does not hold
        const gaps = db
          .prepare(
            `SELECT s.id FROM server.h_${table} s
             WHERE (@floor IS NULL OR s.id >= @floor) AND NOT EXISTS (SELECT 1 FROM main.h_${table} c WHERE c.rid = -s.id)
             ORDER BY s.id DESC LIMIT 5`,
          )
          .pluck()
          .all({ floor: cursor === 'done' ? null : Number(cursor) });
        expect(gaps, `${what}: ${table} ids behind checkpoint ${cursor} never stored`).toEqual([]);
      }
    }
    const [locks, distinctLocks, wrongLockKey] = db
      .prepare(
        "SELECT count(*), count(DISTINCT id), count(*) FILTER (WHERE id != json_extract(json, '$.id')) FROM main.fusion_locks",
      )
      .raw()
      .get() as [number, number, number];
    expect({ locks, distinctLocks, wrongLockKey }, `${what}: locks`).toEqual({
      locks,
      distinctLocks: locks,
      wrongLockKey: 0,
    });
    const heldLocks = jsonById(db, 'SELECT id, json FROM main.fusion_locks');
    const wrongLocks = [...heldLocks].filter(([id, json]) => server.locks.get(id) !== json).map(([id]) => id);
    expect(wrongLocks.slice(0, 5), `${what}: locks unlike the server's`).toEqual([]);
    const lock = checkpoint(db, LOCK_CHECKPOINT);
    if (lock !== undefined) {
      const behind = [...server.locks.keys()].filter((id) => {
        const lockedAt = (JSON.parse(server.locks.get(id) as string) as { locked_at: string }).locked_at;
        return lockedAt < lock && !heldLocks.has(id);
      });
      expect(behind.slice(0, 5), `${what}: locks older than the checkpoint ${lock} never stored`).toEqual([]);
    }
    for (const family of STRATEGY_FAMILIES) {
      const held = jsonById(db, `SELECT id, json FROM main.${STRATEGY_SQL[family]}`);
      const expected = server.strategies.get(family) as Map<string, string>;
      expect([...held].filter(([id, json]) => expected.get(id) !== json).length, `${what}: ${family}`).toBe(0);
    }
    return { backfill, lock, locks };
  } finally {
    db.close();
  }
}

/** Runs sync and SIGKILLs it after `ms` (unless it finished first). */
async function killAfter(ms: number): Promise<{ killed: boolean; code: number | null }> {
  const run = startSync();
  const finished = await Promise.race([run.exited.then(() => true), sleep(ms).then(() => false)]);
  if (!finished) run.child.kill('SIGKILL');
  const { code, signal } = await run.exited;
  if (signal === null) expect(code, run.output.stderr).toBe(0);
  return { killed: signal === 'SIGKILL', code };
}

/**
 * Runs sync and SIGKILLs it the moment `when` (polled on a read-only connection to the cache) holds. A run that
 * finishes before that is allowed (it is one more restart); the next one is watched, up to `attempts` runs.
 */
async function killWhen(
  when: (db: Database.Database, atStart: Snapshot) => boolean,
  { attempts = 3, withBackfill = true } = {},
): Promise<void> {
  for (let attempt = 1; attempt <= attempts; attempt++) {
    const atStart = snapshot();
    const run = startSync(withBackfill);
    let done = false;
    void run.exited.then(() => {
      done = true;
    });
    let db: Database.Database | undefined;
    try {
      while (!done) {
        try {
          // only once the writer has put the file in WAL mode, so this reader never blocks its setup
          if (!db && existsSync(`${dbFile}-wal`)) db = openReadonly();
          if (db && when(db, atStart)) {
            run.child.kill('SIGKILL');
            await run.exited;
            return;
          }
        } catch {
          // not migrated yet
        }
        await sleep(3);
      }
    } finally {
      db?.close();
    }
    const { code } = await run.exited;
    expect(code, run.output.stderr).toBe(0);
  }
  throw new Error(`no run of ${attempts} reached the kill point`);
}

interface Snapshot {
  mkta?: string;
  lock?: string;
  locks: number;
}
function snapshot(): Snapshot {
  if (!existsSync(dbFile)) return { locks: 0 };
  const db = openReadonly();
  try {
    return {
      mkta: checkpoint(db, backfillStream('mkta_buckets_history')),
      lock: checkpoint(db, LOCK_CHECKPOINT),
      locks: lockCount(db),
    };
  } catch {
    return { locks: 0 };
  } finally {
    db.close();
  }
}

/** The cache holds exactly the server's rows: historical ids (none missing, none twice), locks and strategies. */
function expectEqualsServer(): void {
  const end = expectConsistent('at the comparison');
  expect(end.lock).toBe(server.newestLockedAt);
  const db = openReadonly();
  try {
    for (const table of TABLES) {
      // rid is -id: ascending rid is descending id (the ids alone: their JSON was compared just above)
      const held = db.prepare(`SELECT -rid FROM h_${table} ORDER BY rid`).pluck().all() as number[];
      expect(held, `${table}: cached ids vs server ids`).toEqual(server.idsDesc.get(table));
    }
    const locks = jsonById(db, 'SELECT id, json FROM fusion_locks');
    expect(locks.size).toBe(server.locks.size);
    expect([...locks].filter(([id, json]) => server.locks.get(id) !== json)).toEqual([]);
    for (const family of STRATEGY_FAMILIES) {
      const held = jsonById(db, `SELECT id, json FROM ${STRATEGY_SQL[family]}`);
      expect(held, family).toEqual(server.strategies.get(family));
    }
  } finally {
    db.close();
  }
}

it('sync killed with SIGKILL at random points and restarted ends equal to the server: no gaps, no duplicates', async () => {
  const started = performance.now();
  const mktaTotal = server.idsDesc.get('mkta_buckets_history')?.length ?? 0;
  expect(mktaTotal).toBeGreaterThan(100_000);
  expect(server.locks.size).toBeGreaterThan(20_000);

  // 1. killed in the middle of the lock chain (rows stored, the chain's checkpoint not yet written)
  await killWhen(
    (db, atStart) => atStart.lock === undefined && checkpoint(db, LOCK_CHECKPOINT) === undefined && lockCount(db) > 0,
  );
  const midChain = expectConsistent('after the kill in the lock chain');
  console.log(`killed in the lock chain with ${midChain.locks} of ${server.locks.size} locks stored`);
  expect(midChain.lock).toBeUndefined();
  expect(midChain.locks).toBeGreaterThan(0);
  expect(midChain.locks).toBeLessThan(server.locks.size);

  // 2. killed at seeded random moments
  const random = seededRandom(testSeed('SYNC_KILL_SEED', 9));
  for (let k = 1; k <= 4; k++) {
    const delay = 100 + Math.floor(random() * 1400);
    const { killed } = await killAfter(delay);
    const state = expectConsistent(`after random kill ${k} at ${delay} ms`);
    console.log(
      `kill ${k} after ${delay} ms: ${killed ? 'killed' : 'had finished'}; backfill checkpoints ${JSON.stringify(state.backfill)}, ${state.locks} locks, lock checkpoint ${state.lock ?? '-'}`,
    );
  }

  // 3. killed in the middle of the big backfill: at least 20 pages stored, at least 20 to go
  await killWhen((db, atStart) => {
    const cursor = checkpoint(db, backfillStream('mkta_buckets_history'));
    if (cursor === undefined || cursor === 'done' || cursor === atStart.mkta) return false;
    const left = rowsBelow('mkta_buckets_history', Number(cursor));
    return left <= mktaTotal - 20 * PAGE && left >= 20 * PAGE;
  });
  const midBackfill = expectConsistent('after the kill in the backfill');
  const cursor = midBackfill.backfill.mkta_buckets_history;
  expect(cursor, 'the interrupted backfill left its checkpoint').toMatch(/^\d+$/);
  const remaining = rowsBelow('mkta_buckets_history', Number(cursor));
  console.log(`killed in the backfill at cursor ${cursor}: ${remaining} of ${mktaTotal} rows left`);

  // 4. a run to completion resumes the backfill where it stopped, then matches the server exactly
  const final = startSync();
  const { code } = await final.exited;
  expect(code, final.output.stderr).toBe(0);
  const summary = JSON.parse(final.output.stdout) as {
    streams: Record<string, { fetched: number }>;
    errors: unknown[];
  };
  expect(summary.errors).toEqual([]);
  const resumed = summary.streams['historical/mkta_buckets_history']?.fetched;
  expect(resumed, 'the resumed backfill fetched exactly the rows below its checkpoint').toBe(remaining);
  const pages = { resumed: Math.ceil(remaining / PAGE), full: Math.ceil(mktaTotal / PAGE) };
  console.log(`the resumed backfill took ${pages.resumed} pages of ${pages.full}`);
  expect(pages.resumed).toBeLessThanOrEqual(pages.full - 20);

  const end = expectConsistent('after the final run');
  expect(end.backfill).toEqual(Object.fromEntries(TABLES.map((t) => [t, 'done'])));
  expectEqualsServer();

  // 5. new locks after a finished sync: killed in the middle of the incremental chain, the checkpoint stays where it
  // was; the next run stores every lock. 5,000 locks in ten instants after the checkpoint, 500 sharing each.
  const before = end.lock as string;
  expect(before).toBe(server.newestLockedAt);
  insertExtraLocks(svc.service.db, {
    count: 5_000,
    prefix: 'fl-later',
    resolved: false,
    lockedAt: (i) => iso(Date.parse(before) + (1 + Math.floor(i / 500)) * HOUR),
  });
  readServerLocks();
  await killWhen((db, atStart) => lockCount(db) > atStart.locks, { withBackfill: false });
  const midIncremental = expectConsistent('after the kill in the incremental lock chain');
  console.log(`killed in the incremental lock chain with ${midIncremental.locks} of ${server.locks.size} locks stored`);
  expect(midIncremental.lock, 'the checkpoint of an interrupted chain').toBe(before);
  expect(midIncremental.locks).toBeLessThan(server.locks.size);
  const last = startSync(false);
  expect((await last.exited).code, last.output.stderr).toBe(0);
  expect(JSON.parse(last.output.stdout).errors).toEqual([]);
  expect(expectConsistent('after the last run').lock).toBe(server.newestLockedAt);
  expectEqualsServer();
  console.log(`kills and final run in ${Math.round(performance.now() - started)} ms`);
});
