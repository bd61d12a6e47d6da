import type { Cache } from '../cache/index.js';
import type { ApiClient } from '../client/api-client.js';
import { AuthRejected } from '../client/errors.js';
import { HISTORICAL_TIME_COLUMN, type HistoricalTable } from '../contract/historical.js';
import { LIMITS } from '../contract/limits.js';
import { LIVE_HISTORY_TABLES, type LiveHistoryStream, liveSince } from '../domain/streams.js';
import { answerOf } from './answer.js';
import { addCounts, noCounts, PartialFailure, type StreamCounts } from './counts.js';

/** What a pass needs beyond the client and the cache: the service's clock and the first run's window. */
export interface PassContext {
  now: Date;
  historyHours: number;
}

/** The checkpoint of a table's live stream: `done` between passes, the drain in progress while one runs. */
export const liveCheckpoint = (table: HistoricalTable) => `live/${table}`;
const DONE = 'done';

interface Drain {
  since: string;
  cursor: string;
}

/** A drain cut short (a crash, a kill, a failed page): its bounds and the cursor after its last stored page. */
function interrupted(saved: string | undefined): Drain | undefined {
  if (saved === undefined || saved === DONE) return undefined;
  const drain = JSON.parse(saved) as Partial<Drain>;
  return typeof drain.since === 'string' && typeof drain.cursor === 'string'
    ? { since: drain.since, cursor: drain.cursor }
    : undefined;
}

/**
 * One pass of one table, for every city at once (one request a page, not one a city): from the newest time stored
 * minus the lookback (or the first run's window), every `next_cursor` followed, each page upserted by id in one
 * transaction with the checkpoint. Pages come newest first, so a drain cut short has stored its newest rows but not
 * its oldest: the checkpoint keeps its `since` and cursor until the last page, and the next pass finishes that drain
 * before it starts a new one. A crash re-fetches a page, never skips one.
 */
export function drainLiveTable(
  client: ApiClient,
  cache: Cache,
  table: HistoricalTable,
  context: PassContext,
): Promise<StreamCounts> {
  const since = () =>
    liveSince(HISTORICAL_TIME_COLUMN[table].kind, cache.streams.newestTime(table), context.now, context.historyHours);
  return drainTable(client, cache, table, liveCheckpoint(table), since, { remember: true });
}

/**
 * The drain both the live streams and the demo's history fill run: an interrupted drain of `stream` finishes first
 * (its own `since`, from its cursor); otherwise a new one starts at `startSince(saved)`, `saved` being the stream's
 * checkpoint (`done` after a finished drain, undefined before the first). Each page is one transaction with the
 * checkpoint; `onPage` hears the rows stored so far. `remember`: the first page goes to the cache with its answer
 * (named by the stream), so a first page that comes back as it was is not written again. For the live drains,
 * whose warm pass is that one page (docs/sync-and-export.md, "What the streams cost"); the cache keeps one text a name, so a page
 * each, not the 48 h window's first run of several pages, nor a backfill's thousands.
 */
export async function drainTable(
  client: ApiClient,
  cache: Cache,
  table: HistoricalTable,
  stream: string,
  startSince: (saved: string | undefined) => string,
  opts: { onPage?: (counts: StreamCounts) => void; remember?: boolean } = {},
): Promise<StreamCounts> {
  const saved = cache.streams.checkpoint(stream);
  const resumed = interrupted(saved);
  const since = resumed?.since ?? startSince(saved);
  const counts = noCounts();
  let first = true;
  for await (const page of client.historical(table, { since, cursor: resumed?.cursor, limit: LIMITS.maxPageSize })) {
    const value = page.nextCursor === null ? DONE : JSON.stringify({ since, cursor: String(page.nextCursor) });
    const answer = opts.remember && first ? answerOf(stream, page.rows) : undefined;
    first = false;
    addCounts(counts, page.rows.length, cache.resources.upsertHistorical(table, page.rows, { stream, value }, answer));
    opts.onPage?.(counts);
  }
  return counts;
}

/** A live history stream's pass: each of its tables; one table's failure does not cost the others their pass. */
export const liveHistoryPass =
  (name: LiveHistoryStream) =>
  async (client: ApiClient, cache: Cache, context: PassContext): Promise<StreamCounts> => {
    const counts = noCounts();
    const failures: unknown[] = [];
    const tables = LIVE_HISTORY_TABLES[name];
    for (const table of tables) {
      try {
        const drained = await drainLiveTable(client, cache, table, context);
        counts.fetched += drained.fetched;
        counts.inserted += drained.inserted;
        counts.updated += drained.updated;
      } catch (error) {
        if (error instanceof AuthRejected) throw error;
        failures.push(error);
      }
    }
    // nothing got through: the first failure as it is, so its kind (unreachable, invalid) decides the exit code
    if (failures.length === tables.length) throw failures[0];
    if (failures.length > 0) {
      const reasons = failures.map((error) => (error instanceof Error ? error.message : String(error)));
      const message = `${failures.length} of the tables failed, the rest were stored; first: ${reasons[0]}`;
      throw new PartialFailure(message, reasons, counts, failures[0]);
    }
    return counts;
  };
