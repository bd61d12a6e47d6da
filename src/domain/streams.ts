import type { StreamName } from '../contract/config.js';
import type { HistoricalTable } from '../contract/historical.js';

/**
 * The streams the monitor polls, in the order a sync pass runs them, each with its default poll interval (ms).
 * The sync engine schedules from it; the status bar and the alert rules judge a stream stale against it (a user's
 * own intervals override these). The live history streams of DESIGN 4 come last: METAR and bucket prices every
 * minute (a trader watches them move), the daily tables every 30 minutes (they change once a city-day settles).
 */
export const DEFAULT_INTERVALS_MS = {
  cities: 3_600_000,
  current: 60_000,
  forecasts: 300_000,
  no24: 120_000,
  yescore: 120_000,
  'svc-max-picks': 120_000,
  'fusion-locks': 30_000,
  // METAR before the bucket prices: the edge of a price is conditioned on the running high, and a first pass that
  // stored prices before the day's reports would price an afternoon as if no report had come (board, alerts)
  metar: 60_000,
  'mkta-buckets': 60_000,
  'mktb-buckets': 60_000,
  daily: 1_800_000,
  // exactly the names the config contract accepts: a stream added to one list and not the other does not compile
} as const satisfies Record<StreamName, number>;

export type PolledStream = keyof typeof DEFAULT_INTERVALS_MS;

/** The polled streams in the order a pass runs them. */
export const POLLED_STREAMS = Object.keys(DEFAULT_INTERVALS_MS) as PolledStream[];

/** DESIGN 4 "live history streams": the historical tables each one keeps current. */
export const LIVE_HISTORY_TABLES = {
  metar: ['metar_observations_history'],
  'mkta-buckets': ['mkta_buckets_history'],
  'mktb-buckets': ['mktb_buckets_history'],
  daily: ['forecast_accuracy_daily', 'market_brief_daily', 'edge_resolved', 'model_forecasts_daily'],
} as const satisfies Record<string, readonly HistoricalTable[]>;

export type LiveHistoryStream = keyof typeof LIVE_HISTORY_TABLES;

/** How far before the newest stored time a pass starts again: a late report can carry an older time. */
const LOOKBACK = { instantMs: 2 * 3_600_000, dateDays: 1 } as const;

/** The first run's window: `history_hours` back, or that many days (rounded up, at least one) for date tables. */
export const DEFAULT_HISTORY_HOURS = 48;

const DAY_MS = 86_400_000;

/**
 * Where a live history pass starts (`since`, sent to the service): the newest time stored for the table minus the
 * lookback, or, before anything is stored, `now` minus the history window. Instants come back as ISO instants, dates
 * as YYYY-MM-DD (the date of the UTC instant, since a date table's `local_date` is each city's own calendar day).
 */
export function liveSince(
  kind: 'instant' | 'date',
  newestStored: string | undefined,
  now: Date,
  historyHours: number,
): string {
  if (kind === 'instant') {
    const from = newestStored === undefined ? now.getTime() - historyHours * 3_600_000 : Date.parse(newestStored);
    const back = newestStored === undefined ? 0 : LOOKBACK.instantMs;
    return new Date(from - back).toISOString();
  }
  if (newestStored !== undefined) {
    const day = Date.parse(`${newestStored.slice(0, 10)}T00:00:00Z`);
    return new Date(day - LOOKBACK.dateDays * DAY_MS).toISOString().slice(0, 10);
  }
  const days = Math.max(1, Math.ceil(historyHours / 24));
  return new Date(now.getTime() - days * DAY_MS).toISOString().slice(0, 10);
}
