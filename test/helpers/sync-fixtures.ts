import type Database from 'better-sqlite3';
import type { FusionLock } from '../../src/contract/fusion-locks.js';
import type { HistoricalTable } from '../../src/contract/historical.js';
import type { TestService } from './service.js';

/**
 * mulberry32: a tiny deterministic PRNG, so a failing run of a randomised test can be replayed from its seed
 * (Math.random cannot be).
 */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The seed of a randomised test: the environment variable `name` when set (to replay or explore), else `fallback`,
 * so the suite is deterministic by default. Printed either way.
 */
export function testSeed(name: string, fallback: number): number {
  const given = process.env[name];
  const seed = given !== undefined && given !== '' ? Number(given) : fallback;
  if (!Number.isSafeInteger(seed)) throw new Error(`${name} must be an integer, got ${given}`);
  console.log(`${name}=${seed} (set ${name} to replay or to try another)`);
  return seed;
}

export interface ExtraLocks {
  /** how many to add */
  count: number;
  /** the locked_at of the i-th added lock (whole-second UTC, as the server writes it) */
  lockedAt: (i: number) => string;
  /** id prefix; ids are `${prefix}-${city}-${i}` */
  prefix: string;
  /** unresolved copies settle at their city's next local midnight, like the world's own locks */
  resolved: boolean;
  /** overrides the copied local_date (a date in the future keeps an unresolved lock open for good) */
  localDate?: string;
}

/**
 * Adds locks straight into the reference server's store: each a copy of the newest real lock of a city (cities in
 * turn), with a new id (the JSON's `id` matching the key) and the given locked_at. Unresolved copies carry the
 * nulls of an open lock, so the world settles them at the city's next midnight exactly as it settles its own.
 * Returns the added ids.
 */
export function insertExtraLocks(db: Database.Database, extra: ExtraLocks): string[] {
  const templates = (
    db
      .prepare(
        `SELECT json FROM fusion_locks AS a WHERE locked_at =
           (SELECT max(locked_at) FROM fusion_locks AS b WHERE b.city_id = a.city_id) ORDER BY city_id`,
      )
      .pluck()
      .all() as string[]
  ).map((json) => JSON.parse(json) as FusionLock);
  if (templates.length === 0) throw new Error('the server holds no lock to copy');
  const insert = db.prepare(
    'INSERT INTO fusion_locks (id, city_id, local_date, locked_at, resolved, json) VALUES (?, ?, ?, ?, ?, ?)',
  );
  const ids: string[] = [];
  db.transaction(() => {
    for (let i = 0; i < extra.count; i++) {
      const copied = templates[i % templates.length] as FusionLock;
      const base = extra.localDate === undefined ? copied : { ...copied, local_date: extra.localDate };
      const lockedAt = extra.lockedAt(i);
      const id = `${extra.prefix}-${base.city_id}-${String(i).padStart(5, '0')}`;
      const lock: FusionLock = extra.resolved
        ? { ...base, id, locked_at: lockedAt, resolved: true }
        : {
            ...base,
            id,
            locked_at: lockedAt,
            resolved: false,
            actual_tmax_f: null,
            actual_tmax_c: null,
            hit: null,
            payout_usd: null,
            pnl_usd: null,
          };
      insert.run(id, lock.city_id, lock.local_date, lockedAt, lock.resolved ? 1 : 0, JSON.stringify(lock));
      ids.push(id);
    }
  })();
  return ids;
}

/** `id -> json` of a query returning (id, json) rows. */
export function jsonById(db: Database.Database, sql: string): Map<string, string> {
  const rows = db.prepare(sql).raw().all() as [string | number, string][];
  return new Map(rows.map(([id, json]) => [String(id), json]));
}

/** `id -> json` of stored JSON texts, keyed by their own `id` field; throws on a repeated id. */
export function jsonByOwnId(texts: Iterable<string>): Map<string, string> {
  const byId = new Map<string, string>();
  for (const json of texts) {
    const id = String((JSON.parse(json) as { id: unknown }).id);
    if (byId.has(id)) throw new Error(`id ${id} is held twice`);
    byId.set(id, json);
  }
  return byId;
}

/**
 * What a reference service serves of a historical table from `since` on, page by page of 1000 (the live streams'
 * size), asked straight of it: what a pass must fetch. Tests of the sync take their expectations from this, in
 * the same run, rather than from figures of the simulated world.
 */
export async function servedPages(
  svc: Pick<TestService, 'get'>,
  table: HistoricalTable,
  since: string,
): Promise<Record<string, unknown>[][]> {
  const pages: Record<string, unknown>[][] = [];
  let cursor: string | number | null = null;
  do {
    const path = `/historical/${table}?since=${since}&limit=1000${cursor === null ? '' : `&cursor=${cursor}`}`;
    const res = await svc.get(path);
    if (res.status !== 200) throw new Error(`${path}: HTTP ${res.status}`);
    pages.push(res.body.data);
    cursor = res.body.next_cursor;
  } while (cursor !== null);
  return pages;
}
