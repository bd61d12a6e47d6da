import {
  ALERT_READ_TOPICS,
  type Cache,
  type CacheTopic,
  type OpenPositions,
  POSITION_LIMIT,
  POSITION_TOPICS,
  readNow,
  type SlicedRead,
} from '../cache/index.js';
import type { City } from '../contract/cities.js';
import type { SettlementConfig } from '../contract/config.js';
import { addDays, localDate, openSinceDate } from '../domain/city-time.js';
import { holdingsOf } from '../domain/held-buckets.js';
import { boardDay } from './board-day.js';
import { type BoardRow, boardRow, type DayBook, dayBook } from './board-row.js';
import { MARKET_DAY_TOPICS, type MarketDay, readMarketDay } from './market-day.js';
import { snapshotMsOf } from './same-instant.js';
import { dayEnded, dayEndMs } from './settled-day.js';

/** The rows of the last read by city, with the inputs they were worked out from: an unchanged city is not redone. */
export type BoardMemo = Map<string, { key: string; row: BoardRow }>;

const aheadOfModel = (quotes: MarketDay['mkta'], knownUntilMs: number | null): boolean => {
  const at = snapshotMsOf(quotes);
  return at !== null && knownUntilMs !== null && at > knownUntilMs;
};

/** What a row depends on, as one string: cheap beside the reads, and a row is reused while it stays the same. */
function fingerprint(day: MarketDay, book: DayBook, minute: number): string {
  return JSON.stringify([
    minute,
    day.date,
    day.market,
    [day.primary, day.ensemble, day.range].map((f) => f && [f.local_date, (f as { fetched_at?: string }).fetched_at]),
    // a range worked out from the daily table has no fetched_at: what the row shows of it
    day.range && [day.rangeFrom, day.range.spread_f, day.range.tmax_max_f],
    day.metar.high,
    day.highs,
    day.mkta.map((q) => q.id),
    day.mktb.map((q) => q.id),
    // whether each venue's newest snapshot is past what the monitor holds of the model (same-instant.ts): the bound
    // moves at every pass of the model's streams, the row only when a venue crosses it
    [day.mkta, day.mktb].map((quotes) => aheadOfModel(quotes, day.modelKnownUntilMs)),
    // while a venue is ahead: the newest snapshot the model can be compared with, the row's last comparable edge
    day.comparable && [day.comparable.mkta?.map((q) => q.id), day.comparable.mktb?.map((q) => q.id)],
    day.lock && [day.lock.id, day.lock.resolved],
    book.killed,
    book.book.strategies.map((s) => [s.record.id, s.family]),
    book.book.locks.map((l) => l.id),
    book.book.picks.map((p) => [p.pick_id, p.legs.length]),
    book.book.trades.map((t) => [t.bucket_label, t.side, t.entry?.qty]),
  ]);
}

/**
 * What a read of the board is asked beyond its instant: time travel's day and the instant its book is read at, and
 * whether a city's next market day gets its own row (the screen's board).
 */
export interface BoardReplay {
  /** The market day shown in every city (time travel's chosen day, past its midnight too); default: each city's own. */
  date?: string;
  /**
   * The instant the open positions and the unacknowledged kills are read at (time travel's: the same as `atMs`).
   * Without it they are read as they stand, the newest the cache holds: the live board's book, whose rows other
   * clocks stamp (a kill's receipt by the listener's, an acknowledgement by the TUI's) than the market clock the board
   * shows (the demo's world clock), so none is hidden for being stamped a moment ahead of it.
   */
  asOf?: number;
  /**
   * A second row, marked `tomorrow`, for a city's next market day once the venues list it (a snapshot of its buckets
   * at the instant) and today's is `passed` or `settled`: what a trader prices in the evening. Only where the row
   * shown is the city's own day at the instant (a replay pinned to another day has none). The screen asks for it;
   * `export board` is one object a city, and reaches tomorrow with `--date`.
   */
  tomorrow?: boolean;
}

/** What every city's row of one board read shares: the open positions and the unacknowledged kills, read once. */
export interface BoardBook {
  open: OpenPositions;
  /** `city_id|market_date` of each unacknowledged kill. */
  kills: Set<string>;
}

/** The reads all rows of a board as of `atMs` share: the positions open and the kills unacknowledged (at `replay.asOf`). */
function readBoardBook(cache: Cache, atMs: number, { date, asOf }: BoardReplay = {}): BoardBook {
  const open = cache.positions.open(openSinceDate(atMs, date), POSITION_LIMIT, asOf);
  const kills = new Set(cache.alerts.unacknowledgedKillDays(500, asOf).map((k) => `${k.city_id}|${k.market_date}`));
  return { open, kills };
}

/**
 * A day over: what was held through its end (settled at its outcome by board-row.ts), not what is open at the instant
 * (nothing, once the day settled). The board row and Forecasts' payoff by outcome read a past day's book here.
 */
export function heldThroughDay(cache: Cache, city: City, date: string): OpenPositions {
  return cache.positions.openOfDay(city.city_id, date, POSITION_LIMIT, dayEndMs(city, date) - 1);
}

/**
 * One city's row of the board as of `atMs`, for its own local day then or for `date` (time travel's chosen day): its
 * market day read by the city-day and the instant (market-day.ts), its book from `shared`. `memo` keeps the row of
 * the last read: an unchanged city is not redone.
 */
function readBoardRow(
  cache: Cache,
  city: City,
  atMs: number,
  shared: BoardBook,
  settlement: SettlementConfig = {},
  memo: BoardMemo = new Map(),
  date?: string,
): BoardRow {
  const day = readMarketDay(cache, city, atMs, { date: date ?? localDate(atMs, city.tz), settlement });
  return dayRow(cache, day, shared, memo);
}

/**
 * A market day's row with its book (`shared`, or held through its end once over), kept in `memo` under the city's id,
 * or its id and `tomorrow` for the row of its next market day.
 */
function dayRow(cache: Cache, day: MarketDay, shared: BoardBook, memo: BoardMemo, tomorrow = false): BoardRow {
  const { city, atMs } = day;
  const id = city.city_id;
  const book = dayEnded(day) ? heldThroughDay(cache, city, day.date) : dayBook(shared.open, id, day.date);
  const held: DayBook = {
    book,
    holdings: holdingsOf(book, id, day.date),
    killed: shared.kills.has(`${id}|${day.date}`),
  };
  const key = fingerprint(day, held, Math.floor(atMs / 60_000));
  const memoKey = tomorrow ? `${id} tomorrow` : id;
  const kept = memo.get(memoKey);
  if (kept?.key === key) return kept.row;
  const row: BoardRow = tomorrow ? { ...boardRow(boardDay(day), held), tomorrow } : boardRow(boardDay(day), held);
  memo.set(memoKey, { key, row });
  return row;
}

/** Phases after which a city's next market day is shown beside its day (DESIGN 4 "phase of a city's day"). */
const TOMORROW_AFTER: readonly BoardRow['phase'][] = ['passed', 'settled'];

/**
 * The row of a city's next market day beside `today` (its row of its own date at the instant), or null: only once
 * today's phase is passed or settled and a venue has listed the next day by the instant (a snapshot of its buckets).
 * Priced by the same rules as any day: the desk's forecast of that date (market-day.ts reads a day's own forecast when
 * the newest is of another day), no running high yet, phase `early`.
 */
function tomorrowRow(
  cache: Cache,
  city: City,
  atMs: number,
  today: BoardRow,
  shared: BoardBook,
  settlement: SettlementConfig,
  memo: BoardMemo,
): BoardRow | null {
  if (today.dayOffset !== 0 || !TOMORROW_AFTER.includes(today.phase)) return null;
  const day = readMarketDay(cache, city, atMs, { date: addDays(today.date, 1), settlement });
  if (day.mkta.length === 0 && day.mktb.length === 0) return null;
  return dayRow(cache, day, shared, memo, true);
}

/** The cache's tables a board read touches: each city's market day, the open positions and the kills. */
export const BOARD_TOPICS: readonly CacheTopic[] = [
  ...new Set([...MARKET_DAY_TOPICS, ...POSITION_TOPICS, ...ALERT_READ_TOPICS.unacknowledgedKillDays]),
];

/**
 * Every city's row of the board as of `atMs` (now, for the live board; DESIGN 4 "the board as of an instant"), for
 * its own local day then, or for `replay.date` in every city. Each read is bounded by the city-day and the instant
 * (market-day.ts): the newest snapshot of its buckets on each venue (a few dozen rows by keyset), its METAR readings,
 * its lock by the city index; the positions open and the kills unacknowledged (at `replay.asOf`) are read once for
 * all cities (readBoardBook). `memo` keeps the rows of the last read. With `replay.tomorrow` (the screen), a city whose
 * day is over has its next market day's row right after its own once the venues list it (tomorrowRow).
 *
 * In steps: each `yield` (after the shared reads, then after each city) is where a caller may let a key through;
 * `readBoard` runs it to its end, the TUI a few milliseconds of it at a time.
 */
export function* readBoardSteps(
  cache: Cache,
  cities: readonly City[],
  atMs: number,
  settlement: SettlementConfig = {},
  memo: BoardMemo = new Map(),
  replay: BoardReplay = {},
): SlicedRead<BoardRow[]> {
  const shared = readBoardBook(cache, atMs, replay);
  yield;
  const rows: BoardRow[] = [];
  for (const city of cities) {
    const today = readBoardRow(cache, city, atMs, shared, settlement, memo, replay.date);
    rows.push(today);
    const next = replay.tomorrow ? tomorrowRow(cache, city, atMs, today, shared, settlement, memo) : null;
    if (next) rows.push(next);
    yield;
  }
  return rows;
}

/** The board at once (`export board`, the tests, the benchmarks): readBoardSteps to its end. */
export function readBoard(...args: Parameters<typeof readBoardSteps>): BoardRow[] {
  return readNow(readBoardSteps(...args));
}
