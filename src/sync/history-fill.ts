import type { Cache } from '../cache/index.js';
import type { ApiClient } from '../client/api-client.js';
import { HISTORICAL_TIME_COLUMN, type HistoricalTable } from '../contract/historical.js';
import { liveSince } from '../domain/streams.js';
import { drainTable } from './history-streams.js';

/**
 * The order the demo fills its history in: the small daily tables first (History's summaries and every 30-day
 * figure read them, and they take a second), then the intraday tables a trader's panes read, the largest last.
 */
const FILL_ORDER: readonly HistoricalTable[] = [
  'forecast_accuracy_daily',
  'market_brief_daily',
  'edge_resolved',
  'model_forecasts_daily',
  'metar_observations_history',
  'forecast_history',
  'mkta_buckets_history',
  'mktb_buckets_history',
  'wxa_history',
  'wxb_history',
  'pws_observations_history',
];

/** The embedded world keeps 30 days behind its clock; a day more, so the first day's early hours are not cut. */
const FILL_HOURS = 31 * 24;

/** Where the fill of each table stands: `done` once its first fill finished, a drain in progress while one runs. */
const fillCheckpoint = (table: HistoricalTable) => `fill/${table}`;

export interface FillProgress {
  /** The table being drained, or null once every table is done. */
  table: HistoricalTable | null;
  tablesDone: number;
  tables: number;
  /** Rows fetched by this run of the fill, all tables. */
  rows: number;
}

/**
 * The demo's history: on first start every historical table's last 31 days (FILL_HOURS), so History, its summaries
 * and the 30-day figures have data at once; on later starts only what came since, from the newest time stored minus
 * the lookback, as the live streams do. A fill cut short (quit, crash) resumes where its checkpoint stands. Stops
 * between tables when `stopped()` says so; a request cancelled by the session's close rejects as it is.
 */
export async function fillHistory(
  client: ApiClient,
  cache: Cache,
  now: () => Date,
  onProgress: (progress: FillProgress) => void,
  stopped: () => boolean = () => false,
): Promise<FillProgress> {
  let rows = 0;
  let tablesDone = 0;
  const tables = FILL_ORDER.length;
  for (const table of FILL_ORDER) {
    if (stopped()) break;
    const before = rows;
    onProgress({ table, tablesDone, tables, rows });
    const kind = HISTORICAL_TIME_COLUMN[table].kind;
    // before the first fill finished, the window; afterwards, a catch-up from the newest row stored
    const since = (saved: string | undefined) =>
      liveSince(kind, saved === 'done' ? cache.streams.newestTime(table) : undefined, now(), FILL_HOURS);
    await drainTable(client, cache, table, fillCheckpoint(table), since, {
      onPage: (counts) => {
        rows = before + counts.fetched;
        onProgress({ table, tablesDone, tables, rows });
      },
    });
    tablesDone++;
  }
  const done: FillProgress = { table: null, tablesDone, tables, rows };
  onProgress(done);
  return done;
}
