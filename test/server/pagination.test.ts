import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HISTORICAL_TABLES, HISTORICAL_TIME_COLUMN, type HistoricalTable } from '../../src/contract/historical.js';
import { LIMITS } from '../../src/contract/limits.js';
import { startTestService, type TestService } from '../helpers/service.js';

/**
 * Keyset pagination of `/historical/{table}` and `/fusion-locks`, against the real server: every page chain is
 * compared with the same query run directly on the server's store. The services run with a standing world clock
 * (`speed: 0`) so rows only arrive when a test advances the world itself.
 */

const HOUR = 3_600_000;
const STILL_WORLD = { speed: 0 };
/** A guard against a cursor that never ends. */
const MAX_PAGES = 5_000;

// ---------------------------------------------------------------------------------------------------------------
// shapes and small helpers

interface HistoricalRow {
  id: number;
  city_id: string;
  [field: string]: unknown;
}

interface HistoricalPage {
  table: string;
  count: number;
  next_cursor: number | null;
  data: HistoricalRow[];
}

interface LockRow {
  id: string;
  city_id: string;
  locked_at: string;
  resolved: boolean;
  [field: string]: unknown;
}

interface LockPage {
  count: number;
  next_cursor: string | null;
  data: LockRow[];
}

type Params = Record<string, string | undefined>;

function query(params: Params): string {
  const q = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) if (value !== undefined) q.set(name, value);
  return q.toString();
}

/** The world instant everything up to which has been applied. */
function worldNow(svc: TestService): number {
  const now = svc.service.world.processedUntil();
  if (now === undefined) throw new Error('the test world has not been initialised');
  return now;
}

function advanceWorld(svc: TestService, hours: number): void {
  svc.service.world.advanceTo(worldNow(svc) + hours * HOUR);
}

/** Whole-second UTC string, as the store keeps instants. */
function isoSecond(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 19)}Z`;
}

/**
 * Compares a drained sequence with the expected one and reports only what differs (a full diff of 100 000 ids
 * would be unreadable): repeats, ids missing, ids that should not be there, and the first position that differs.
 */
function expectSameSequence<T>(actual: readonly T[], expected: readonly T[]): void {
  const seen = new Set<T>();
  const duplicates: T[] = [];
  for (const id of actual) {
    if (seen.has(id)) duplicates.push(id);
    seen.add(id);
  }
  const wanted = new Set(expected);
  const missing = expected.filter((id) => !seen.has(id));
  const unexpected = actual.filter((id) => !wanted.has(id));
  let firstDifference = -1;
  for (let i = 0; i < Math.max(actual.length, expected.length); i++) {
    if (actual[i] !== expected[i]) {
      firstDifference = i;
      break;
    }
  }
  expect({
    count: actual.length,
    duplicates: duplicates.slice(0, 10),
    missing: missing.slice(0, 10),
    unexpected: unexpected.slice(0, 10),
    firstDifference,
  }).toEqual({ count: expected.length, duplicates: [], missing: [], unexpected: [], firstDifference: -1 });
}

/** Index of the first item not strictly after its predecessor in the order, or -1. */
function firstOrderViolation<T>(items: readonly T[], strictlyBefore: (a: T, b: T) => boolean): number {
  for (let i = 1; i < items.length; i++) {
    const a = items[i - 1];
    const b = items[i];
    if (a !== undefined && b !== undefined && !strictlyBefore(a, b)) return i;
  }
  return -1;
}

const idsOf = <T>(rows: readonly { id: T }[]): T[] => rows.map((r) => r.id);

const idDescending = (a: number, b: number) => a > b;
const lockDescending = (a: LockRow, b: LockRow) =>
  a.locked_at > b.locked_at || (a.locked_at === b.locked_at && a.id > b.id);

// ---------------------------------------------------------------------------------------------------------------
// draining page chains through the API

/** The shape every page must have, whatever the endpoint. */
function checkPage(page: { count: number; next_cursor: unknown; data: unknown[] }, limit: number, index: number): void {
  expect(Array.isArray(page.data)).toBe(true);
  expect(page.count, `page ${index}: count`).toBe(page.data.length);
  expect(page.data.length, `page ${index}: rows on the page`).toBeLessThanOrEqual(limit);
  if (page.next_cursor !== null) {
    expect(page.data.length, `page ${index}: a page with a next page is full`).toBe(limit);
  } else if (index > 0) {
    expect(page.data.length, `page ${index}: the chain ends without an empty trailing page`).toBeGreaterThan(0);
  }
}

async function historicalPage(svc: TestService, table: HistoricalTable, params: Params): Promise<HistoricalPage> {
  const res = await svc.get(`/historical/${table}?${query(params)}`);
  expect(res.status, `GET /historical/${table}?${query(params)}: ${res.text.slice(0, 300)}`).toBe(200);
  const page = res.body as HistoricalPage;
  expect(page.table).toBe(table);
  return page;
}

interface Drain<R> {
  rows: R[];
  pages: number;
}

/**
 * Follows `next_cursor` until null. `betweenPages` runs after each page that has a successor, before it is
 * fetched (used to make the world move under the chain).
 */
async function drainHistorical(
  svc: TestService,
  table: HistoricalTable,
  params: Params,
  limit: number,
  betweenPages?: (pageIndex: number, page: HistoricalRow[]) => void,
): Promise<Drain<HistoricalRow>> {
  const rows: HistoricalRow[] = [];
  let cursor: number | null = null;
  let pages = 0;
  do {
    const page = await historicalPage(svc, table, {
      ...params,
      limit: String(limit),
      cursor: cursor === null ? undefined : String(cursor),
    });
    checkPage(page, limit, pages);
    if (page.next_cursor !== null) {
      // DESIGN section 4: the historical cursor is the last id of the page, as an integer
      expect(page.next_cursor, `page ${pages}: next_cursor`).toBe(page.data[page.data.length - 1]?.id);
    }
    rows.push(...page.data);
    cursor = page.next_cursor;
    pages++;
    if (pages > MAX_PAGES) throw new Error(`/historical/${table}: more than ${MAX_PAGES} pages, the chain loops`);
    if (cursor !== null) betweenPages?.(pages - 1, page.data);
  } while (cursor !== null);
  return { rows, pages };
}

async function lockPage(svc: TestService, params: Params): Promise<LockPage> {
  const res = await svc.get(`/fusion-locks?${query(params)}`);
  expect(res.status, `GET /fusion-locks?${query(params)}: ${res.text.slice(0, 300)}`).toBe(200);
  return res.body as LockPage;
}

async function drainLocks(
  svc: TestService,
  params: Params,
  limit: number,
  betweenPages?: (pageIndex: number) => void,
): Promise<Drain<LockRow>> {
  const rows: LockRow[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const page = await lockPage(svc, { ...params, limit: String(limit), cursor: cursor ?? undefined });
    checkPage(page, limit, pages);
    if (page.next_cursor !== null) expect(typeof page.next_cursor).toBe('string');
    rows.push(...page.data);
    cursor = page.next_cursor;
    pages++;
    if (pages > MAX_PAGES) throw new Error(`/fusion-locks: more than ${MAX_PAGES} pages, the chain loops`);
    if (cursor !== null) betweenPages?.(pages - 1);
  } while (cursor !== null);
  return { rows, pages };
}

// ---------------------------------------------------------------------------------------------------------------
// the same questions asked of the store directly

interface SqlBounds {
  cityId?: string;
  /** normalised like the stored `t` column */
  since?: string;
  until?: string;
}

function sqlHistoricalIds(svc: TestService, table: HistoricalTable, b: SqlBounds = {}): number[] {
  return svc.service.db
    .prepare(
      `SELECT id FROM h_${table}
       WHERE (@city IS NULL OR city_id = @city) AND (@since IS NULL OR t >= @since) AND (@until IS NULL OR t <= @until)
       ORDER BY id DESC`,
    )
    .pluck()
    .all({ city: b.cityId ?? null, since: b.since ?? null, until: b.until ?? null }) as number[];
}

interface SqlLockFilter {
  cityId?: string;
  since?: string;
  resolved?: boolean;
}

function sqlLockIds(svc: TestService, f: SqlLockFilter = {}): string[] {
  const resolved = f.resolved === undefined ? null : f.resolved ? 1 : 0;
  return svc.service.db
    .prepare(
      `SELECT id FROM fusion_locks
       WHERE (@city IS NULL OR city_id = @city) AND (@since IS NULL OR locked_at >= @since)
         AND (@resolved IS NULL OR resolved = @resolved)
       ORDER BY locked_at DESC, id DESC`,
    )
    .pluck()
    .all({ city: f.cityId ?? null, since: f.since ?? null, resolved }) as string[];
}

function sqlCities(svc: TestService): string[] {
  return svc.service.db.prepare('SELECT DISTINCT city_id FROM fusion_locks ORDER BY city_id').pluck().all() as string[];
}

// ---------------------------------------------------------------------------------------------------------------
// since/until windows on the DESIGN column

/** A `since`/`until` pair as sent, the bounds it means on the stored column, and the instants it means. */
interface Window {
  since?: string;
  until?: string;
}

const INSTANT_WINDOWS: Window[] = [
  { since: '2026-11-01', until: '2026-11-10' },
  { since: '2026-11-05T08:30:00+02:00', until: '2026-11-12T18:15:30.250-05:00' },
  { since: '2026-11-19T23:59:59.5Z' },
  { until: '2026-10-25T00:00:00Z' },
  { since: '2026-11-07T10:00:00Z', until: '2026-11-07T10:00:00Z' },
];

const DATE_WINDOWS: Window[] = [
  { since: '2026-10-15', until: '2026-11-05' },
  { since: '2026-11-18' },
  { until: '2026-10-01' },
  { since: '2026-11-07', until: '2026-11-07' },
];

/** Lower bound of an instant column: a date is its UTC midnight; sub-second instants round up (whole seconds). */
function lowerInstant(text: string): string {
  if (/^\d{4}-\d{2}-\d{2}$/.test(text)) return `${text}T00:00:00Z`;
  return isoSecond(Math.ceil(Date.parse(text) / 1000) * 1000);
}

/** Upper bound of an instant column: a date is its whole UTC day; sub-second instants round down. */
function upperInstant(text: string): string {
  if (/^\d{4}-\d{2}-\d{2}$/.test(text)) return `${text}T23:59:59Z`;
  return isoSecond(Math.floor(Date.parse(text) / 1000) * 1000);
}

function sqlBoundsOf(table: HistoricalTable, w: Window): SqlBounds {
  if (HISTORICAL_TIME_COLUMN[table].kind === 'date') return { since: w.since, until: w.until };
  return {
    since: w.since === undefined ? undefined : lowerInstant(w.since),
    until: w.until === undefined ? undefined : upperInstant(w.until),
  };
}

/** Independent of the SQL: each served row's own DESIGN column lies inside the window. */
function expectRowsInWindow(table: HistoricalTable, rows: HistoricalRow[], w: Window): void {
  const { column, kind } = HISTORICAL_TIME_COLUMN[table];
  const outside = rows.filter((row) => {
    const value = row[column];
    if (typeof value !== 'string') return true;
    if (kind === 'date') {
      return (w.since !== undefined && value < w.since) || (w.until !== undefined && value > w.until);
    }
    const at = Date.parse(value);
    const from = w.since === undefined ? Number.NEGATIVE_INFINITY : Date.parse(w.since);
    const to =
      w.until === undefined
        ? Number.POSITIVE_INFINITY
        : /^\d{4}-\d{2}-\d{2}$/.test(w.until)
          ? Date.parse(w.until) + 24 * HOUR - 1
          : Date.parse(w.until);
    return !(at >= from && at <= to);
  });
  expect(
    outside.slice(0, 5).map((r) => ({ id: r.id, [column]: r[column] })),
    `${table}: rows outside ${JSON.stringify(w)}`,
  ).toEqual([]);
}

const windowsFor = (table: HistoricalTable) =>
  HISTORICAL_TIME_COLUMN[table].kind === 'date' ? DATE_WINDOWS : INSTANT_WINDOWS;

const BUCKET_TABLES: readonly HistoricalTable[] = ['mkta_buckets_history', 'mktb_buckets_history'];

/** Page size for a full drain: the two big bucket tables differ, so one of them is drained with the small page. */
const fullDrainLimit = (table: HistoricalTable) => (table === 'mktb_buckets_history' ? 997 : 97);

/**
 * Page size for an all-city window drain. A time window on a bucket table costs the server ~30 ms a page (it
 * range-scans the `t` index and sorts the whole window again for every page), so those use the big page; the
 * one-city window below crosses many boundaries with a page of 13 on every table.
 */
const windowDrainLimit = (table: HistoricalTable) => (BUCKET_TABLES.includes(table) ? 997 : 97);

// ---------------------------------------------------------------------------------------------------------------

describe('/historical/{table} pagination', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService(STILL_WORLD);
  });
  afterAll(async () => {
    await svc?.close();
  });

  describe.each(HISTORICAL_TABLES)('%s', (table) => {
    it('a full drain returns every row once, in id order, as the store holds them', async () => {
      const expected = sqlHistoricalIds(svc, table);
      expect(expected.length, 'the template world has rows in every table').toBeGreaterThan(0);
      const limit = fullDrainLimit(table);
      const { rows, pages } = await drainHistorical(svc, table, {}, limit);
      const ids = idsOf(rows);
      expect(firstOrderViolation(ids, idDescending), 'ids strictly descending across pages').toBe(-1);
      expectSameSequence(ids, expected);
      expect(pages).toBe(Math.max(1, Math.ceil(expected.length / limit)));
    });

    it('filters by city_id across pages (and an unknown city is an empty 200)', async () => {
      for (const cityId of ['paris', 'seattle']) {
        const expected = sqlHistoricalIds(svc, table, { cityId });
        expect(expected.length, `${cityId} has ${table} rows`).toBeGreaterThan(0);
        const { rows } = await drainHistorical(svc, table, { city_id: cityId }, 97);
        expect(rows.filter((r) => r.city_id !== cityId).map((r) => r.id)).toEqual([]);
        const ids = idsOf(rows);
        expect(firstOrderViolation(ids, idDescending)).toBe(-1);
        expectSameSequence(ids, expected);
      }
      const none = await historicalPage(svc, table, { city_id: 'atlantis', limit: '5' });
      expect(none).toEqual({ table, count: 0, next_cursor: null, data: [] });
    });

    it.each(windowsFor(table))('since/until on the table time column: %j', async (w) => {
      const bounds = sqlBoundsOf(table, w);
      const expected = sqlHistoricalIds(svc, table, bounds);
      const { rows } = await drainHistorical(svc, table, { since: w.since, until: w.until }, windowDrainLimit(table));
      const ids = idsOf(rows);
      expectRowsInWindow(table, rows, w);
      expect(firstOrderViolation(ids, idDescending)).toBe(-1);
      expectSameSequence(ids, expected);

      // the same window for one city, with a page small enough to cross many boundaries
      const cityExpected = sqlHistoricalIds(svc, table, { ...bounds, cityId: 'nyc' });
      const city = await drainHistorical(svc, table, { since: w.since, until: w.until, city_id: 'nyc' }, 13);
      expect(city.rows.filter((r) => r.city_id !== 'nyc').map((r) => r.id)).toEqual([]);
      expectRowsInWindow(table, city.rows, w);
      expectSameSequence(idsOf(city.rows), cityExpected);
    });
  });
});

describe('/fusion-locks pagination', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService(STILL_WORLD);
  });
  afterAll(async () => {
    await svc?.close();
  });

  async function expectLockDrain(filter: SqlLockFilter, params: Params, limit: number): Promise<LockRow[]> {
    const expected = sqlLockIds(svc, filter);
    const { rows } = await drainLocks(svc, params, limit);
    expect(firstOrderViolation(rows, lockDescending), 'ordered by (locked_at, id) descending').toBe(-1);
    expectSameSequence(idsOf(rows), expected);
    return rows;
  }

  it('a full drain with limit 7 returns every lock once, by (locked_at, id) descending', async () => {
    const expected = sqlLockIds(svc);
    expect(expected.length).toBeGreaterThan(LIMITS.defaultPageSize);
    const rows = await expectLockDrain({}, {}, 7);
    expect(rows.length).toBe(expected.length);
  });

  it('drains each city, and resolved=true / resolved=false, with limit 7', async () => {
    const cities = sqlCities(svc);
    expect(cities.length).toBeGreaterThan(1);
    for (const cityId of cities) {
      const rows = await expectLockDrain({ cityId }, { city_id: cityId }, 7);
      expect(rows.every((r) => r.city_id === cityId)).toBe(true);
    }
    const resolved = await expectLockDrain({ resolved: true }, { resolved: 'true' }, 7);
    expect(resolved.every((r) => r.resolved === true)).toBe(true);
    const open = await expectLockDrain({ resolved: false }, { resolved: 'false' }, 7);
    expect(open.every((r) => r.resolved === false)).toBe(true);
    const parisResolved = await expectLockDrain(
      { cityId: 'paris', resolved: true },
      { city_id: 'paris', resolved: 'true' },
      7,
    );
    expect(parisResolved.length).toBeGreaterThan(0);
  });

  it('drains with since (a date and an instant) combined with the cursor', async () => {
    const day = await expectLockDrain({ since: '2026-11-10T00:00:00Z' }, { since: '2026-11-10' }, 7);
    expect(day.length).toBeGreaterThan(7);
    const instant = await expectLockDrain(
      { since: '2026-11-12T14:00:00Z', cityId: 'berlin' },
      { since: '2026-11-12T15:00:00+01:00', city_id: 'berlin' },
      3,
    );
    expect(instant.length).toBeGreaterThan(3);
  });

  it('since is inclusive: the newest locked_at returns at least every lock locked then', async () => {
    const first = await lockPage(svc, { limit: '1' });
    const newest = first.data[0]?.locked_at;
    expect(typeof newest).toBe('string');
    const since = String(newest);
    const atNewest = svc.service.db
      .prepare('SELECT id FROM fusion_locks WHERE locked_at = ? ORDER BY id DESC')
      .pluck()
      .all(since) as string[];
    expect(atNewest.length).toBeGreaterThan(0);
    const page = await lockPage(svc, { since, limit: String(LIMITS.maxFusionLockPageSize) });
    const ids = page.data.map((r) => r.id);
    expect(ids.filter((id) => atNewest.includes(id)).sort()).toEqual([...atNewest].sort());
    expect(page.data.filter((r) => r.locked_at < since).map((r) => r.id)).toEqual([]);
    expectSameSequence(ids, sqlLockIds(svc, { since }));
  });

  it('many locks sharing one locked_at: limit 4 returns every lock exactly once', async () => {
    const db = svc.service.db;
    // an instant real locks already share (several cities lock at the same UTC hour), so ids on both sides mix
    const shared = db
      .prepare('SELECT locked_at FROM fusion_locks GROUP BY locked_at ORDER BY count(*) DESC, locked_at DESC LIMIT 1')
      .pluck()
      .get() as string;
    const template = JSON.parse(
      db.prepare('SELECT json FROM fusion_locks WHERE locked_at = ? LIMIT 1').pluck().get(shared) as string,
    ) as LockRow & { local_date: string };
    const insert = db.prepare(
      'INSERT INTO fusion_locks (id, city_id, local_date, locked_at, resolved, json) VALUES (?, ?, ?, ?, ?, ?)',
    );
    const extraIds = Array.from({ length: 25 }, (_, i) =>
      i % 2 === 0 ? `fl-aaa-extra-${String(i).padStart(2, '0')}` : `fl-zzz-extra-${String(i).padStart(2, '0')}`,
    );
    db.transaction(() => {
      for (const id of extraIds) {
        const lock = { ...template, id };
        insert.run(id, lock.city_id, lock.local_date, shared, lock.resolved ? 1 : 0, JSON.stringify(lock));
      }
    })();
    const sharing = db.prepare('SELECT count(*) FROM fusion_locks WHERE locked_at = ?').pluck().get(shared) as number;
    expect(sharing).toBeGreaterThanOrEqual(25 + 2);

    const all = await expectLockDrain({}, {}, 4);
    expect(all.filter((r) => extraIds.includes(r.id)).length).toBe(25);

    const fromShared = await expectLockDrain({ since: shared }, { since: shared }, 4);
    expect(fromShared.filter((r) => r.locked_at === shared).length).toBe(sharing);

    const cityOnly = await expectLockDrain({ cityId: template.city_id }, { city_id: template.city_id }, 4);
    expect(cityOnly.filter((r) => extraIds.includes(r.id)).length).toBe(25);
  });
});

describe('pagination while new rows arrive', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService(STILL_WORLD);
  });
  afterAll(async () => {
    await svc?.close();
  });

  it('metar_observations_history: the chain returns exactly the rows of its first page instant, each once', async () => {
    const table = 'metar_observations_history';
    const maxId = () => svc.service.db.prepare(`SELECT max(id) FROM h_${table}`).pluck().get() as number;
    let headId: number | undefined;
    let expected: number[] = [];
    let advances = 0;
    const { rows } = await drainHistorical(svc, table, {}, 50, (pageIndex, page) => {
      if (pageIndex === 0) {
        // the rows that exist when the first page is read: the first page starts at the newest of them
        headId = page[0]?.id;
        expect(headId).toBe(maxId());
        expected = svc.service.db
          .prepare(`SELECT id FROM h_${table} WHERE id <= ? ORDER BY id DESC`)
          .pluck()
          .all(headId) as number[];
      }
      // the world moves 6 h between each of the first pages (over a thousand new rows), then an hour every 40th page
      if (pageIndex < 8 || pageIndex % 40 === 0) {
        advanceWorld(svc, pageIndex < 8 ? 6 : 1);
        advances++;
      }
    });
    expect(headId).toBeDefined();
    expect(rows[0]?.id).toBe(headId);
    expect(advances).toBeGreaterThanOrEqual(8);
    expect(maxId(), 'new rows arrived during the chain').toBeGreaterThan(Number(headId) + 1000);
    expect(firstOrderViolation(idsOf(rows), idDescending)).toBe(-1);
    expectSameSequence(idsOf(rows), expected);
  });

  it('fusion locks: every lock of the chain start once, resolutions in place keep their position', async () => {
    const db = svc.service.db;
    const openIds = () => db.prepare('SELECT id FROM fusion_locks WHERE resolved = 0').pluck().all() as string[];
    // move to an instant where several locks are still unresolved (the template's locks are all settled)
    for (let step = 0; step < 48 && openIds().length < 6; step++) advanceWorld(svc, 1);
    const openAtStart = openIds();
    expect(openAtStart.length, 'unresolved locks exist at the chain start').toBeGreaterThanOrEqual(6);

    // resolved=false is a filter that pages like the others
    const open = await drainLocks(svc, { resolved: 'false' }, 2);
    expectSameSequence(idsOf(open.rows), sqlLockIds(svc, { resolved: false }));

    const expected = sqlLockIds(svc);
    const countAtStart = expected.length;
    let advances = 0;
    const { rows } = await drainLocks(svc, {}, 4, (pageIndex) => {
      if (pageIndex < 6) {
        advanceWorld(svc, 6);
        advances++;
      }
    });
    expect(advances).toBe(6);
    expect(sqlLockIds(svc).length, 'new locks arrived during the chain').toBeGreaterThan(countAtStart);
    expect(firstOrderViolation(rows, lockDescending)).toBe(-1);
    expectSameSequence(idsOf(rows), expected);
    const settledMidChain = rows.filter((r) => openAtStart.includes(r.id) && r.resolved);
    expect(settledMidChain.length, 'some locks resolved while the chain ran and were still returned').toBeGreaterThan(
      0,
    );
    expect(openIds().filter((id) => openAtStart.includes(id))).toEqual([]);
  });
});
