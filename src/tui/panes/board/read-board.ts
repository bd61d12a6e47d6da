import type { Cache } from '../../../cache/index.js';
import type { City } from '../../../contract/cities.js';
import { addDays } from '../../../domain/city-time.js';
import { holdingsOf } from '../../../domain/held-buckets.js';
import { marketUnitOf } from '../../../domain/units.js';
import { cityToday } from '../../format/time.js';
import { type BoardDayInput, type BoardRow, boardRow, dayBook } from './board-row.js';

/** The rows of the last read by city, with the inputs they were worked out from: an unchanged city is not redone. */
export type BoardMemo = Map<string, { key: string; row: BoardRow }>;

/** What a row depends on, as one string: cheap beside the reads, and a row is reused while it stays the same. */
function fingerprint(v: BoardDayInput, minute: number): string {
  return JSON.stringify([
    minute,
    v.date,
    v.forecasts.map((f) => [f.layer, f.local_date, f.fetched_at]),
    v.metarHigh,
    v.mkta.map((q) => q.id),
    v.mktb.map((q) => q.id),
    v.lock && [v.lock.id, v.lock.resolved],
    v.killed,
    v.book.strategies.map((s) => [s.record.id, s.family]),
    v.book.locks.map((l) => l.id),
    v.book.picks.map((p) => [p.pick_id, p.legs.length]),
    v.book.trades.map((t) => [t.bucket_label, t.side, t.entry?.qty]),
  ]);
}

/**
 * Every city's row for its own local day. Each read is bounded by the city-day: the newest snapshot of its buckets
 * on each venue (a few dozen rows by keyset), its METAR readings, its lock by the city index; the open positions and
 * the unacknowledged kills are read once for all cities.
 */
export function readBoard(cache: Cache, cities: readonly City[], nowMs: number, memo: BoardMemo): BoardRow[] {
  // a market is live until its city's day is over: yesterday in UTC covers every zone
  const open = cache.positions.open(addDays(new Date(nowMs).toISOString().slice(0, 10), -1));
  const kills = new Set(cache.alerts.unacknowledgedKillDays().map((k) => `${k.city_id}|${k.market_date}`));
  const minute = Math.floor(nowMs / 60_000);
  return cities.map((city) => {
    const id = city.city_id;
    const day = cityToday(nowMs, city.tz);
    const book = dayBook(open, id, day.date);
    const input: BoardDayInput = {
      city,
      unit: marketUnitOf(city.country),
      nowMs,
      date: day.date,
      forecasts: cache.resources.latestForecasts(id),
      metarHigh: cache.market.metarDay(id, day).high,
      mkta: cache.market.newestSnapshot('mkta', id, day.date),
      mktb: cache.market.newestSnapshot('mktb', id, day.date),
      lock: cache.market.dayLock(id, day),
      book,
      holdings: holdingsOf(book, id, day.date),
      killed: kills.has(`${id}|${day.date}`),
    };
    const key = fingerprint(input, minute);
    const kept = memo.get(id);
    if (kept?.key === key) return kept.row;
    const row = boardRow(input);
    memo.set(id, { key, row });
    return row;
  });
}
