import type { CountedQueries } from '../db/counted-queries.js';
import { NOW_UNBOUNDED } from '../db/time.js';
import type { DerivedInstantSource, ScanTable } from './derived-instant-sources.js';
import { compareFeed, type FeedKey, type Zones } from './signal.js';

type Row = Record<string, unknown>;

/**
 * Rows a step of a scan reads at most: 0.5 to 1 ms of a scan's work (svc-max picks, whose entry hour is in their
 * JSON, cost the most), measured against chunks of 64 to 1,024 rows and a time budget (docs/benchmarks.md).
 */
export const SCAN_CHUNK = 256;

/**
 * Where a query of a scan starts: its first rows (`first`, from the bound when there is one), or past the last row
 * read, first the rest of its proxy's rows (`tie`), then the proxies beyond (`beyond`). A keyset on (proxy, key) as
 * two queries rather than one row-value comparison: SQLite seeks an index only on its first column for
 * `(proxy, id) < (?, ?)` when `id` is the rowid, so every chunk would step again over the rows of its proxy read
 * before (a day's thousands of records). Each of these seeks its index (test/cache/feed/feed-scan-plans.unit.test.ts).
 */
export type ScanFrom = 'first' | 'tie' | 'beyond';

/** The SQL of a query of a scan, its last parameter the rows it reads at most. */
export function scanChunkSql(t: ScanTable, older: boolean, from: ScanFrom, bounded: boolean): string {
  const [strict, loose, order] = older ? ['<', '<=', 'DESC'] : ['>', '>=', 'ASC'];
  const where = t.filter === null ? [] : [t.filter];
  if (from === 'first' && bounded) where.push(`${t.proxy} ${loose} ?`);
  if (from === 'tie') where.push(`${t.proxy} = ?`, `${t.key} ${strict} ?`);
  if (from === 'beyond') where.push(`${t.proxy} ${strict} ?`);
  return `SELECT ${t.columns} FROM ${t.table}${where.length > 0 ? ` WHERE ${where.join(' AND ')}` : ''}
    ORDER BY ${t.proxy} ${order}, ${t.key} ${order} LIMIT ?`;
}

/**
 * The rows of a scan in (proxy, key) order, `older`: descending from `bound` (proxy <= it; undefined: from the
 * highest), else ascending from it (proxy >= it), each handed to `visit` until it returns false or the rows end.
 * At most SCAN_CHUNK rows a step: the scan yields between chunks, each chunk read by queries of its own from where
 * the last one stopped, so no statement is left open across a yield (another read may run the same statement
 * meanwhile, and no read transaction holds back a WAL checkpoint across turns of the event loop). Rows are counted
 * as read only up to the one `visit` stopped at, as a row-at-a-time scan would.
 */
export function* scanInChunks(
  q: CountedQueries,
  t: ScanTable,
  older: boolean,
  bound: string | number | undefined,
  visit: (row: Row) => boolean,
): Generator<void, void, void> {
  let from: ScanFrom = 'first';
  let last: Row = {};
  const argsFrom = (): unknown[] => {
    if (from === 'tie') return [last[t.proxy], last[t.key]];
    if (from === 'beyond') return [last[t.proxy]];
    return bound === undefined ? [] : [bound];
  };
  for (;;) {
    let read = 0;
    while (read < SCAN_CHUNK) {
      const asked = SCAN_CHUNK - read;
      let got = 0;
      for (const row of q.iterate<Row>(scanChunkSql(t, older, from, bound !== undefined), ...argsFrom(), asked)) {
        got++;
        last = row;
        if (!visit(row)) return;
      }
      read += got;
      // all it asked for: more may follow the last row, at its proxy first; fewer: its proxy's rows (a tie) ended,
      // so the proxies beyond come next, or the scan's rows ended
      if (got === asked) from = 'tie';
      else if (from === 'tie') from = 'beyond';
      else return;
    }
    yield;
  }
}

/**
 * The keys of the `limit` rows of a derived source after `after`, in feed order, as of `atMs` (light columns only),
 * scanned a chunk a step.
 */
export function* olderKeys(
  q: CountedQueries,
  s: DerivedInstantSource,
  after: FeedKey | null,
  limit: number,
  zones: Zones,
  atMs: number,
): Generator<void, FeedKey[], void> {
  // no row after the instant can make the page: its proxy bounds the scan as a cursor's does
  const newest = Math.min(after ? after.at : Number.POSITIVE_INFINITY, atMs);
  const bound = newest < NOW_UNBOUNDED ? s.boundArg(newest - s.lo) : undefined;
  const kept: FeedKey[] = [];
  yield* scanInChunks(q, s.scan, true, bound, (row) => {
    const key: FeedKey = { at: s.atOf(row, zones), rank: s.rank, key: s.keyOf(row) };
    if ((after && compareFeed(after, key) >= 0) || key.at > atMs) return true;
    keep(kept, key, limit, compareFeed);
    const last = kept[limit - 1];
    // every later row is at most proxy + hi: older than the page's last, so the page is complete
    return !(last && s.proxyOf(row) + s.hi < last.at);
  });
  return kept;
}

/**
 * The keys of the `limit` rows of a derived source before `before`, nearest first, as of `atMs` (light columns
 * only), scanned a chunk a step.
 */
export function* newerKeys(
  q: CountedQueries,
  s: DerivedInstantSource,
  before: FeedKey,
  limit: number,
  zones: Zones,
  atMs: number,
): Generator<void, FeedKey[], void> {
  const nearestFirst = (a: FeedKey, b: FeedKey) => compareFeed(b, a);
  const kept: FeedKey[] = [];
  yield* scanInChunks(q, s.scan, false, s.boundArg(before.at - s.hi), (row) => {
    // every later row is at least proxy + lo: after the instant, so nothing further exists yet
    if (s.proxyOf(row) + s.lo > atMs) return false;
    const key: FeedKey = { at: s.atOf(row, zones), rank: s.rank, key: s.keyOf(row) };
    if (compareFeed(key, before) >= 0 || key.at > atMs) return true;
    keep(kept, key, limit, nearestFirst);
    const last = kept[limit - 1];
    return !(last && s.proxyOf(row) + s.lo > last.at);
  });
  return kept;
}

/** Inserts into a sorted array bounded to `limit` entries. */
function keep(kept: FeedKey[], signal: FeedKey, limit: number, order: (a: FeedKey, b: FeedKey) => number): void {
  let i = kept.length;
  while (i > 0 && order(signal, kept[i - 1] as FeedKey) < 0) i--;
  if (i >= limit) return;
  kept.splice(i, 0, signal);
  if (kept.length > limit) kept.pop();
}
