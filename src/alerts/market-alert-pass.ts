import { setImmediate as nextTurn } from 'node:timers/promises';
import { boardDay } from '../board/board-day.js';
import { edgeBandRecords } from '../board/edge-band-record.js';
import { marketDateOf, readMarketDay } from '../board/market-day.js';
import { type AlertRow, type Cache, shortBusyWrites, writeWhenFree } from '../cache/index.js';
import type { SettlementConfig } from '../contract/config.js';
import { addDays } from '../domain/city-time.js';
import { holdingsOf } from '../domain/held-buckets.js';
import { markCatchUp, type StreamIntervals } from './alert-timing.js';
import { goneEdges } from './edge-gone.js';
import { marketAlerts } from './market-alerts.js';

/** Edge marks are kept this many days past their market: a market settles the day after, at the latest. */
const MARK_DAYS = 3;
/** How often an alert pass looks whether the board's record moved (a day settled): its text may lag that much. */
const RECORD_RECHECK_MS = 10 * 60_000;
/** How long one city's write waits, from a timer, for another process's write lock; then the pass gives up. */
const WRITE_DEADLINE_MS = 30_000;

/**
 * The trader alert rules over every cached city's market day, after fresh market data landed. Each city is read and
 * written in its own short turn (one transaction), yielding to the event loop in between, so a webhook listener in
 * the same process is never held up by more than one city's reads. A write meeting another process's lock (a
 * `sync` or `listen` on the same file) waits from a timer, as the listener's writes do (cache/db/busy-writes.ts), never
 * inside SQLite on the event loop. Returns the alerts it stored.
 *
 * DESIGN 4 "alerts in time": each alert is stamped with the reading or snapshot that made it true, and one found more
 * than two poll intervals of its stream late (`intervals`) is stored as catch-up (alert-timing.ts); an edge alert of
 * the day the board no longer shows at `edgeMin` is marked gone (edge-gone.ts); an edge alert's text carries the
 * board's record of its band and venue (board/edge-band-record.ts, kept between passes).
 */
export async function runMarketAlerts(
  cache: Cache,
  edgeMin: number,
  now: Date,
  settlement: SettlementConfig = {},
  intervals: StreamIntervals = {},
): Promise<AlertRow[]> {
  const nowMs = now.getTime();
  const createdAt = now.toISOString();
  // each city's market day: the service's current one, the date of its newest forecast (board/market-day.ts)
  const days = cache.resources.cities().map((city) => ({ city, date: marketDateOf(cache, city, nowMs) }));
  if (days.length === 0) return [];
  const earliest = days.map((d) => d.date).reduce((a, b) => (a < b ? a : b));
  const open = cache.positions.open(earliest);
  const run = shortBusyWrites(cache);
  const write = <T>(work: () => T) => writeWhenFree(run, work, Date.now() + WRITE_DEADLINE_MS);
  const stored: AlertRow[] = [];
  // the record's version looked at once every 10 minutes at most: a pass runs after every stream pass
  const record = edgeBandRecords(cache, { edgeMin, settlement }, { recheckMs: RECORD_RECHECK_MS });
  for (const { city, date } of days) {
    const id = city.city_id;
    const read = readMarketDay(cache, city, nowMs, { date, settlement });
    const day = boardDay(read);
    const fired = cache.alerts.firedEdges(id, day.date);
    const market = { day, holdings: holdingsOf(open, id, day.date), highSinceMs: read.metar.high?.since ?? null };
    // an edge only where a price and the model are of the same instant (board/same-instant.ts): a snapshot after
    // what the sync holds of the METAR and the desk offers none, so a reading not yet fetched raises nothing
    const found = marketAlerts(market, edgeMin, fired, createdAt, (edge, venue) => record(edge, venue).text);
    const gone = goneEdges(day, cache.alerts.liveEdges(id, day.date), edgeMin, nowMs);
    const toStore = { ...found, alerts: markCatchUp(found.alerts, nowMs, intervals), gone };
    if (toStore.alerts.length + toStore.fired.length + gone.length > 0)
      stored.push(...(await write(() => cache.alerts.raiseMarketAlerts(toStore))));
    await nextTurn();
  }
  await write(() => cache.alerts.forgetEdgesBefore(addDays(earliest, -MARK_DAYS)));
  return stored;
}
