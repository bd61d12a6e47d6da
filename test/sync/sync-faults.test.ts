import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Compile } from 'typebox/compile';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Cache, openCache } from '../../src/cache/index.js';
import { ApiClient } from '../../src/client/api-client.js';
import { ServiceUnreachable } from '../../src/client/errors.js';
import { FusionLock } from '../../src/contract/fusion-locks.js';
import {
  STRATEGY_FAMILIES,
  STRATEGY_RECORD,
  type StrategyFamily,
  type StrategyRecord,
} from '../../src/contract/strategies.js';
import { LOCK_CHECKPOINT, pollFusionLocks } from '../../src/sync/lock-poller.js';
import { SyncEngine } from '../../src/sync/sync-engine.js';
import { exported, openRecords, readCacheFile, storedLocks } from '../helpers/cache-rows.js';
import { type Fault, startFaultProxy } from '../helpers/fault-proxy.js';
import { startTestService, TEST_KEY, type TestService } from '../helpers/service.js';
import { insertExtraLocks, jsonById, jsonByOwnId, seededRandom, testSeed } from '../helpers/sync-fixtures.js';
import { TEMPLATE_START } from '../helpers/world-template.js';

/** The records of a family the cache holds settled. */
const settledRecords = (cache: Cache, family: StrategyFamily) =>
  exported<StrategyRecord>(cache, family).filter((record) => record.outcome != null);

const HOUR = 3_600_000;
/** The service's own tick never comes during a test: the world moves only when a test advances it. */
const FROZEN = { tickMs: 24 * HOUR };
const FAST_RETRY = { attempts: 3, baseMs: 5, capMs: 20, maxRetryAfterMs: 1500 };
/**
 * How long the client waits for an answer before it counts the request hung: what each `hang` fault costs. Not less:
 * the service and the proxy answer from this test's own thread, which stores pages between requests, and on a loaded
 * machine an answer that is on its way took over 300 ms; the client then took a forced bad row for a hung request.
 */
const HANG_TIMEOUT_MS = 1_500;
const PAGE = 500;
const STRATEGY_SQL: Record<StrategyFamily, string> = {
  no24: 's_no24',
  yescore: 's_yescore',
  'svc-max-picks': 's_svc_max_picks',
};

const root = mkdtempSync(join(tmpdir(), 'svc-sync-faults-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let caches = 0;
/** A new cache in a real SQLite file. */
const freshCache = () => openCache(join(root, `cache-${++caches}.db`));

type Proxy = Awaited<ReturnType<typeof startFaultProxy>>;
interface Rig {
  svc: TestService;
  proxy: Proxy;
  worldMs: number;
  /** Moves the world clock on by `ms`: new locks and records appear, open ones settle. */
  advance(ms: number): void;
}

/** A reference service over a copy of the template world, and a fault proxy in front of it, for one describe. */
function rig(): Rig {
  const r = {
    worldMs: TEMPLATE_START,
    advance(ms: number) {
      r.worldMs += ms;
      r.svc.service.world.advanceTo(r.worldMs);
    },
  } as Rig;
  beforeAll(async () => {
    r.svc = await startTestService(FROZEN);
    r.proxy = await startFaultProxy(r.svc.baseUrl);
  });
  afterAll(async () => {
    await r.proxy?.close();
    await r.svc?.close();
  });
  return r;
}

const isoSecond = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');
const newestLockedAt = (svc: TestService) =>
  svc.service.db.prepare('SELECT max(locked_at) FROM fusion_locks').pluck().get() as string;
/** Lock ids of a `since`-inclusive query in API order (locked_at desc, id desc). */
const serverChain = (svc: TestService, since: string) =>
  svc.service.db
    .prepare('SELECT id FROM fusion_locks WHERE locked_at >= ? ORDER BY locked_at DESC, id DESC')
    .pluck()
    .all(since) as string[];
const cursorRequests = (proxy: Proxy, from: number, what: (path: string) => boolean = () => true) =>
  proxy.requests
    .slice(from)
    .filter((r) => r.path.includes('/fusion-locks?') && r.path.includes('cursor=') && what(r.path)).length;

/** Two id -> JSON text maps are the same: no id missing, none extra, every text equal. */
function expectSameRows(cached: Map<string, string>, server: Map<string, string>, what: string): void {
  const missing = [...server.keys()].filter((id) => !cached.has(id));
  const extra = [...cached.keys()].filter((id) => !server.has(id));
  const differing = [...server.keys()].filter((id) => cached.has(id) && cached.get(id) !== server.get(id));
  const report = (ids: string[]) => ({ count: ids.length, first: ids.slice(0, 5) });
  expect(
    { missing: report(missing), extra: report(extra), differing: report(differing) },
    `${what}: cache vs server (${cached.size} cached, ${server.size} on the server)`,
  ).toEqual({ missing: report([]), extra: report([]), differing: report([]) });
}

/** The cache's locks (ids and stored JSON texts, each id once) equal the server's store. */
function expectLocksEqualServer(cache: Cache, svc: TestService, what: string): void {
  const cached = jsonByOwnId(cache.export.rows('fusion-locks'));
  expectSameRows(cached, jsonById(svc.service.db, 'SELECT id, json FROM fusion_locks'), `${what}: fusion locks`);
}

function expectStrategiesEqualServer(cache: Cache, svc: TestService, what: string): void {
  for (const family of STRATEGY_FAMILIES) {
    const cached = jsonByOwnId(cache.export.rows(family));
    const server = jsonById(svc.service.db, `SELECT id, json FROM ${STRATEGY_SQL[family]}`);
    expectSameRows(cached, server, `${what}: ${family}`);
  }
}

const lockSchema = Compile(FusionLock);
const strategySchemas = Object.fromEntries(STRATEGY_FAMILIES.map((f) => [f, Compile(STRATEGY_RECORD[f])])) as Record<
  StrategyFamily,
  ReturnType<typeof Compile>
>;

/**
 * Everything the cache holds of locks and strategy records passes the contract, its key and typed columns agree
 * with its JSON, and its id exists on the server: nothing a broken response carried was stored.
 */
function expectCacheValid(cache: Cache, svc: TestService, what: string): void {
  const problems: string[] = [];
  const serverLockIds = new Set(svc.service.db.prepare('SELECT id FROM fusion_locks').pluck().all() as string[]);
  const locks = readCacheFile(cache, (db) =>
    db.prepare('SELECT id, city_id, locked_at, resolved, json FROM fusion_locks').all(),
  ) as {
    id: string;
    city_id: string;
    locked_at: string;
    resolved: number;
    json: string;
  }[];
  for (const row of locks) {
    const lock = JSON.parse(row.json) as FusionLock;
    if (!lockSchema.Check(lock)) {
      const [first] = lockSchema.Errors(lock);
      problems.push(`lock ${row.id}: ${first?.instancePath} ${first?.message}`);
    } else if (
      lock.id !== row.id ||
      lock.city_id !== row.city_id ||
      lock.locked_at !== row.locked_at ||
      Number(lock.resolved) !== row.resolved
    ) {
      problems.push(`lock ${row.id}: its columns disagree with its JSON`);
    }
    if (!serverLockIds.has(row.id)) problems.push(`lock ${row.id} does not exist on the server`);
  }
  for (const family of STRATEGY_FAMILIES) {
    const serverIds = new Set(
      svc.service.db.prepare(`SELECT id FROM ${STRATEGY_SQL[family]}`).pluck().all() as number[],
    );
    const rows = readCacheFile(cache, (db) =>
      db.prepare(`SELECT id, city_id, open, json FROM ${STRATEGY_SQL[family]}`).all(),
    ) as {
      id: number;
      city_id: string;
      open: number;
      json: string;
    }[];
    for (const row of rows) {
      const record = JSON.parse(row.json) as { id: number; city_id: string; outcome: string | null };
      if (!strategySchemas[family].Check(record)) {
        const [first] = strategySchemas[family].Errors(record);
        problems.push(`${family} ${row.id}: ${first?.instancePath} ${first?.message}`);
      } else if (
        record.id !== row.id ||
        record.city_id !== row.city_id ||
        Number(record.outcome === null) !== row.open
      ) {
        problems.push(`${family} ${row.id}: its columns disagree with its JSON`);
      }
      if (!serverIds.has(row.id)) problems.push(`${family} ${row.id} does not exist on the server`);
    }
  }
  expect(problems.slice(0, 10), `${what}: ${problems.length} invalid cached rows`).toEqual([]);
}

/**
 * The checkpoint invariant: every lock older than the checkpoint is held. (Locks only ever appear at the world's
 * current time, so a lock older than the checkpoint existed when the chain that set it ran.)
 */
function expectNothingBehindCheckpoint(cache: Cache, svc: TestService, what: string): void {
  const checkpoint = cache.streams.checkpoint(LOCK_CHECKPOINT);
  if (checkpoint === undefined) return;
  expect(checkpoint <= newestLockedAt(svc), `${what}: checkpoint ${checkpoint} beyond the server's newest`).toBe(true);
  const held = new Set(storedLocks(cache).map((lock) => lock.id));
  const behind = svc.service.db.prepare('SELECT id FROM fusion_locks WHERE locked_at < ?').pluck().all(checkpoint);
  const skipped = (behind as string[]).filter((id) => !held.has(id));
  expect(skipped.slice(0, 10), `${what}: ${skipped.length} locks older than checkpoint ${checkpoint} not held`).toEqual(
    [],
  );
}

describe('lock pages cut through locks that share one locked_at', () => {
  const r = rig();

  it('every page size walks ~30 locks sharing one locked_at exactly once, in order, through retried faults', async () => {
    const { svc, proxy } = r;
    const shared = newestLockedAt(svc);
    // the world's own locks of that instant (one a city whose peak it was), then 30 more
    const own = serverChain(svc, shared).length;
    insertExtraLocks(svc.service.db, { count: 30, prefix: 'fl-same', resolved: false, lockedAt: () => shared });
    const random = seededRandom(testSeed('LOCK_PAGES_SEED', 46));
    // each distinct request may fail once (503 or a hung answer); its retry passes, so every chain completes. A hang
    // is rarer than a 503: each one waits out the client's whole timeout, and a few prove as much as many
    const tried = new Set<string>();
    proxy.setPlan((path) => {
      if (tried.has(path)) return 'pass';
      tried.add(path);
      const roll = random();
      return roll < 0.15 ? '503' : roll < 0.19 ? 'hang' : 'pass';
    });
    const client = new ApiClient({
      baseUrl: proxy.baseUrl,
      apiKey: TEST_KEY,
      timeoutMs: HANG_TIMEOUT_MS,
      retry: FAST_RETRY,
    });
    try {
      const sameInstant = serverChain(svc, shared);
      expect(sameInstant.length).toBe(own + 30); // the 30 added and the real locks they share locked_at with
      const everything = serverChain(svc, '2000-01-01T00:00:00Z');
      const cases: { since?: string; limit: number; expected: string[] }[] = [
        ...[1, 2, 7, 29, 30, 31, 32, 100, PAGE].map((limit) => ({ since: shared, limit, expected: sameInstant })),
        ...[7, 100, PAGE].map((limit) => ({ limit, expected: everything })),
      ];
      for (const { since, limit, expected } of cases) {
        const walked: string[] = [];
        let pages = 0;
        for await (const page of client.fusionLocks({ since, limit })) {
          pages++;
          expect(page.rows.length).toBeLessThanOrEqual(limit);
          if (page.nextCursor !== null) expect(page.rows.length).toBe(limit);
          walked.push(...page.rows.map((lock) => lock.id));
        }
        expect(walked, `since ${since ?? '(none)'}, limit ${limit}`).toEqual(expected);
        expect(pages).toBe(Math.max(1, Math.ceil(expected.length / limit)));
      }
      expect(proxy.requests.filter((q) => q.fault !== 'pass').length).toBeGreaterThan(5);
    } finally {
      await client.close();
    }
  });

  it('pollFusionLocks follows chains of 500-lock pages through 700 locks sharing one locked_at, and their resolutions', async () => {
    const { svc, proxy } = r;
    const shared = newestLockedAt(svc);
    const own = serverChain(svc, shared).length;
    insertExtraLocks(svc.service.db, { count: 700, prefix: 'fl-many', resolved: false, lockedAt: () => shared });
    // the 700 and those already there (the test before added 30 to the world's own): more than a page
    const sharing = serverChain(svc, shared).length;
    expect(sharing).toBe(own + 700);
    const total = svc.service.db.prepare('SELECT count(*) FROM fusion_locks').pluck().get() as number;
    proxy.setPlan(() => 'pass');
    const client = new ApiClient({ baseUrl: proxy.baseUrl, apiKey: TEST_KEY, timeoutMs: 5_000, retry: FAST_RETRY });
    const cache = freshCache();
    try {
      // the first cycle: no since, every lock the server holds, a request a page of 500
      let from = proxy.requests.length;
      const first = await pollFusionLocks(client, cache);
      expect(cursorRequests(proxy, from, (p) => !p.includes('resolved='))).toBe(Math.ceil(total / PAGE) - 1);
      expect(first.inserted).toBe(total);
      expect(cache.streams.checkpoint(LOCK_CHECKPOINT)).toBe(shared);
      expectLocksEqualServer(cache, svc, 'after the first cycle');

      // since = the checkpoint, inclusive: those sharing it again, a page of 500 at a time, nothing new
      from = proxy.requests.length;
      const second = await pollFusionLocks(client, cache);
      expect(cursorRequests(proxy, from, (p) => !p.includes('resolved='))).toBe(Math.ceil(sharing / PAGE) - 1);
      expect(second).toMatchObject({ inserted: 0, updated: 0 });
      expect(second.fetched).toBeGreaterThanOrEqual(sharing);
      expectLocksEqualServer(cache, svc, 'after the second cycle');

      // newer locks arrive: the checkpoint moves past the shared instant
      r.advance(3 * HOUR);
      await pollFusionLocks(client, cache);
      expect(cache.streams.checkpoint(LOCK_CHECKPOINT)).toBe(newestLockedAt(svc));
      expect((cache.streams.checkpoint(LOCK_CHECKPOINT) as string) > shared).toBe(true);
      expectLocksEqualServer(cache, svc, 'after new locks arrived');

      // European and London midnights settle their copies: older than the checkpoint, only the resolved drain sees them
      r.advance(10 * HOUR);
      const settledEarly = svc.service.db
        .prepare("SELECT count(*) FROM fusion_locks WHERE id LIKE 'fl-many-%' AND resolved = 1")
        .pluck()
        .get() as number;
      expect(settledEarly).toBeGreaterThan(0);
      expect(settledEarly).toBeLessThan(700);
      const third = await pollFusionLocks(client, cache);
      expect(third.updated).toBeGreaterThanOrEqual(settledEarly);
      expectLocksEqualServer(cache, svc, 'after the European midnights');

      // every other midnight: more than a page of resolutions since the oldest open lock, drained as a chain
      r.advance(9 * HOUR);
      from = proxy.requests.length;
      const fourth = await pollFusionLocks(client, cache);
      expect(cursorRequests(proxy, from, (p) => p.includes('resolved=true'))).toBeGreaterThanOrEqual(1);
      expect(fourth.updated).toBeGreaterThanOrEqual(700 - settledEarly);
      expect(
        svc.service.db
          .prepare("SELECT count(*) FROM fusion_locks WHERE id LIKE 'fl-many-%' AND resolved = 0")
          .pluck()
          .get(),
      ).toBe(0);
      expectLocksEqualServer(cache, svc, 'after every midnight');
    } finally {
      await client.close();
      cache.close();
    }
  });
});

describe('the lock checkpoint never moves past a lock it has not stored', () => {
  const r = rig();

  it.each([2, 3])(
    'page %i of a three-page chain fails every retry: checkpoint unchanged, next cycle stores all',
    async (failPage) => {
      const { svc, proxy } = r;
      proxy.setPlan(() => 'pass');
      const client = new ApiClient({ baseUrl: proxy.baseUrl, apiKey: TEST_KEY, timeoutMs: 5_000, retry: FAST_RETRY });
      const cache = freshCache();
      try {
        await pollFusionLocks(client, cache);
        const before = cache.streams.checkpoint(LOCK_CHECKPOINT) as string;
        expect(before).toBe(newestLockedAt(svc));
        // 1,100 new locks in eleven instants after the checkpoint, 100 sharing each: the chain since the checkpoint
        // (inclusive: the locks already held at it come last) is three pages, newest first, so whatever a failed page
        // holds is older than the chain's newest lock
        const base = Date.parse(before);
        insertExtraLocks(svc.service.db, {
          count: 1100,
          prefix: `fl-new${failPage}`,
          resolved: false,
          lockedAt: (i) => isoSecond(base + (1 + Math.floor(i / 100)) * HOUR),
        });
        const chain = serverChain(svc, before);
        const heldBefore = new Set(storedLocks(cache).map((lock) => lock.id));
        const sharingCheckpoint = chain.filter((id) => heldBefore.has(id)).length;
        expect(chain.length).toBe(1100 + sharingCheckpoint);
        expect(Math.ceil(chain.length / PAGE)).toBe(3);

        const cursors: string[] = [];
        proxy.setPlan((path) => {
          const cursor = new URL(path, 'http://proxy').searchParams.get('cursor');
          if (!path.includes('/fusion-locks?') || cursor === null) return 'pass';
          if (!cursors.includes(cursor)) cursors.push(cursor);
          return cursors.indexOf(cursor) + 2 === failPage ? '503' : 'pass';
        });
        const from = proxy.requests.length;
        await expect(pollFusionLocks(client, cache)).rejects.toBeInstanceOf(ServiceUnreachable);
        expect(proxy.requests.slice(from).filter((q) => q.fault === '503').length).toBe(FAST_RETRY.attempts);
        expect(cache.streams.checkpoint(LOCK_CHECKPOINT)).toBe(before);
        // the pages before the failed one are stored, nothing after them
        const held = new Set(storedLocks(cache).map((lock) => lock.id));
        const stored = (failPage - 1) * PAGE;
        expect(chain.filter((id) => held.has(id))).toEqual(chain.filter((id, i) => i < stored || heldBefore.has(id)));
        const lockedAt = (id: string) =>
          svc.service.db.prepare('SELECT locked_at FROM fusion_locks WHERE id = ?').pluck().get(id) as string;
        // a checkpoint moved to the chain's newest lock would skip every lock not yet stored
        expect(lockedAt(chain[stored] as string) < lockedAt(chain[0] as string)).toBe(true);

        proxy.setPlan(() => 'pass');
        await pollFusionLocks(client, cache);
        expect(cache.streams.checkpoint(LOCK_CHECKPOINT)).toBe(newestLockedAt(svc));
        expectLocksEqualServer(cache, svc, `after a clean cycle following the failed page ${failPage}`);
      } finally {
        await client.close();
        cache.close();
      }
    },
  );
});

describe('sync through a fault-injecting proxy while the world moves', () => {
  const r = rig();

  it('stores nothing invalid under faults, never skips a lock, and then equals the server exactly', async () => {
    const { svc, proxy } = r;
    const db = svc.service.db;
    const seed = testSeed('SYNC_FAULTS_SEED', 20_261_121);
    const random = seededRandom(seed);

    // 733 locks added at the server's newest locked_at: 30 open ones that settle at their cities' next midnights, 700
    // settled ones, and 3 that stay open for good, so every cycle's resolved drain is a chain of two pages or more
    const shared = newestLockedAt(svc);
    const opened = insertExtraLocks(db, { count: 30, prefix: 'fl-open', resolved: false, lockedAt: () => shared });
    insertExtraLocks(db, { count: 700, prefix: 'fl-done', resolved: true, lockedAt: () => shared });
    insertExtraLocks(db, {
      count: 3,
      prefix: 'fl-stuck',
      resolved: false,
      localDate: '2026-12-31',
      lockedAt: () => shared,
    });

    const cache = freshCache();
    const client = new ApiClient({
      baseUrl: proxy.baseUrl,
      apiKey: TEST_KEY,
      timeoutMs: HANG_TIMEOUT_MS,
      retry: FAST_RETRY,
    });
    const engine = new SyncEngine({ client, cache });

    // every kind of fault at least once, at places that matter; then seeded random faults on ~25% of requests
    const forced: { match: (path: string) => boolean; fault: Fault; used: boolean }[] = [
      { match: (p) => p.includes('/cities'), fault: '503', used: false },
      { match: (p) => p.includes('/current?'), fault: 'hang', used: false },
      { match: (p) => p.includes('/forecasts?'), fault: '429', used: false },
      { match: (p) => p.includes('/no24?'), fault: 'bad-row', used: false },
      { match: (p) => p.includes('/yescore?'), fault: 'malformed', used: false },
      { match: (p) => p.includes('/fusion-locks?') && p.includes('cursor='), fault: 'bad-row', used: false },
      { match: (p) => p.includes('/fusion-locks?') && !p.includes('cursor='), fault: 'bad-row', used: false },
    ];
    // one hang in the mix (and one forced): each waits out the client's whole timeout
    const MIX: Fault[] = ['503', '503', '503', 'hang', '429', 'malformed', 'malformed', 'bad-row', 'bad-row'];
    let faultsOn = true;
    let advanceMidChain = false;
    let midChainAdvances = 0;
    let burst = 0;
    proxy.setPlan((path) => {
      if (!faultsOn) return 'pass';
      if (advanceMidChain && path.includes('/fusion-locks?') && path.includes('cursor=')) {
        // the world moves between two pages of a chain: locks appear, open ones settle
        advanceMidChain = false;
        midChainAdvances++;
        r.advance(HOUR);
      }
      const force = forced.find((f) => !f.used && f.match(path));
      if (force) {
        force.used = true;
        return force.fault;
      }
      if (burst > 0) {
        burst--;
        return '503';
      }
      if (random() >= 0.18) return 'pass'; // with the bursts, about a quarter of all requests
      const fault = MIX[Math.floor(random() * MIX.length)] as Fault;
      // a 5xx comes in a burst of one to four answers, so some outlast every retry
      if (fault === '503') burst = Math.floor(random() * 4);
      return fault;
    });

    const invalidStreams = new Set<string>();
    const everOpen = new Map<StrategyFamily, Set<number>>(STRATEGY_FAMILIES.map((f) => [f, new Set<number>()]));
    const everSettled = new Set<string>();
    /** `lock:<id>` and `<family>:<id>` of every lock and strategy record the cache holds settled. */
    const settledNow = () =>
      new Set([
        ...storedLocks(cache)
          .filter((lock) => lock.resolved === true)
          .map((lock) => `lock:${lock.id}`),
        ...STRATEGY_FAMILIES.flatMap((f) => settledRecords(cache, f).map((x) => `${f}:${x.id}`)),
      ]);
    try {
      const PASSES = 8;
      for (let pass = 1; pass <= PASSES; pass++) {
        if (pass > 1) r.advance(3 * HOUR);
        advanceMidChain = random() < 0.7;
        const from = proxy.requests.length;
        const summary = await engine.runOnce();
        const requests = proxy.requests.slice(from);
        const faults = requests.filter((q) => q.fault !== 'pass').map((q) => q.fault);
        for (const e of summary.errors) if (e.kind === 'invalid') invalidStreams.add(e.stream);
        console.log(
          `pass ${pass} (world ${isoSecond(r.worldMs)}): ${requests.length} requests, ${cursorRequests(proxy, from)} ` +
            `lock pages by cursor, faults [${faults.join(' ')}], errors [${summary.errors.map((e) => `${e.stream}:${e.kind}`).join(' ')}]`,
        );
        expectCacheValid(cache, svc, `after pass ${pass}`);
        expectNothingBehindCheckpoint(cache, svc, `after pass ${pass}`);
        for (const family of STRATEGY_FAMILIES) {
          for (const record of openRecords(cache, family)) everOpen.get(family)?.add(record.id);
        }
        // settling only goes one way: what the cache once held settled it never holds open again
        const settled = settledNow();
        const reopened = [...everSettled].filter((key) => !settled.has(key));
        expect(reopened.slice(0, 5), `after pass ${pass}: settled rows held open again`).toEqual([]);
        for (const key of settled) everSettled.add(key);
        // the broken rows of 'bad-row' (city_id 42) reached no table
        for (const name of ['cities', 'current', 'forecasts', 'fusion-locks', ...STRATEGY_FAMILIES]) {
          expect(
            cache.export.rows(name).filter((json) => json.includes('"city_id":42')),
            `after pass ${pass}: ${name}`,
          ).toEqual([]);
        }
      }
      expect(
        forced.filter((f) => !f.used).map((f) => f.fault),
        'forced faults never delivered',
      ).toEqual([]);
      expect([...invalidStreams].sort()).toEqual(expect.arrayContaining(['fusion-locks', 'no24', 'yescore']));
      expect(midChainAdvances).toBeGreaterThan(0);

      // faults off, the world frozen: one clean pass brings the cache to the server's state exactly
      faultsOn = false;
      const clean = await engine.runOnce();
      expect(clean.errors).toEqual([]);
      expectCacheValid(cache, svc, 'after the clean pass');
      expectLocksEqualServer(cache, svc, 'after the clean pass');
      expectStrategiesEqualServer(cache, svc, 'after the clean pass');
      expect(cache.streams.checkpoint(LOCK_CHECKPOINT)).toBe(newestLockedAt(svc));

      // and a second one finds nothing left to change
      const again = await engine.runOnce();
      expect(again.errors).toEqual([]);
      for (const name of ['fusion-locks', ...STRATEGY_FAMILIES]) {
        expect(again.streams[name], name).toMatchObject({ inserted: 0, updated: 0 });
      }
      expectLocksEqualServer(cache, svc, 'after the second clean pass');
      expectStrategiesEqualServer(cache, svc, 'after the second clean pass');

      // the run exercised resolutions: locks added open and records cached open were settled, and the cache has them
      const settledLocks = readCacheFile(cache, (db) =>
        opened.filter(
          (id) => (db.prepare('SELECT resolved FROM fusion_locks WHERE id = ?').pluck().get(id) as number) === 1,
        ),
      );
      expect(settledLocks.length).toBeGreaterThan(0);
      for (const family of STRATEGY_FAMILIES.filter((f) => f !== 'svc-max-picks')) {
        const settled = [...(everOpen.get(family) ?? [])].filter((id) =>
          settledRecords(cache, family).some((record) => record.id === id),
        );
        expect(settled.length, `${family} records cached open and later settled`).toBeGreaterThan(0);
      }
    } finally {
      await client.close();
      cache.close();
    }
  });
});
