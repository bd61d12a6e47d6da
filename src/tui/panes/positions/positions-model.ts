import {
  type Cache,
  type CacheTopic,
  type EdgeTradeView,
  type InsurancePickView,
  MARKET_READ_TOPICS,
  POSITION_TOPICS,
  type QuoteBook,
} from '../../../cache/index.js';
import type { City } from '../../../contract/cities.js';
import { booksNote } from '../../../domain/book-horizon.js';
import { localDate, localDay, openSinceDate } from '../../../domain/city-time.js';
import { IncrementalPricer } from '../../../domain/incremental-pricing.js';
import type { PricedPositions } from '../../../domain/position-pnl.js';
import { instantAsk, type PaneStoreSpec } from '../../state/pane-store.js';
import type { SlicedRead } from '../../state/sliced-read.js';

/** The quotes the positions are marked to (`cache.market.quotes`), and the positions with them. */
export const QUOTE_TOPICS: readonly CacheTopic[] = MARKET_READ_TOPICS.quotes;
const POSITIONS_PANE_TOPICS: readonly CacheTopic[] = [...POSITION_TOPICS, ...QUOTE_TOPICS];

export interface PositionsParams {
  cities: readonly City[];
  now: Date;
  /** The quotes' change version: the quote books kept are read again only when it moves. */
  quotesVersion: number;
  /** Time travel (the same instant as `now`): what was open then, marked to the quotes of then. */
  asOf?: number;
}

/** What a read of the pane keeps for the next: the pricer's marks and each city's quote book. */
class PositionsMemo {
  readonly pricer = new IncrementalPricer();
  readonly books = new Map<string, QuoteBook>();
  /** The quotes' version and the instant the books were read at. */
  booksVersion: string | null = null;
}

/**
 * What the pane shows: every open position marked, and the totals' counts; and, of the book's horizon (DESIGN 4),
 * what the pane says of its insurance picks (null: the book is whole) and the kills of live markets whose pick the
 * cache never received.
 */
export type PricedBook = PricedPositions<InsurancePickView, EdgeTradeView> & {
  picksNote: string | null;
  killsNotReceived: InsurancePickView[];
  /** Each city's local date at the read's instant (a city not configured: the UTC date): what is live, what decided. */
  todayOf: Record<string, string>;
  utcToday: string;
};

/** Whether a city-day of the book is over at the read's instant: its local midnight has passed (position-groups.ts). */
export const dayDecided =
  (book: Pick<PricedBook, 'todayOf' | 'utcToday'>) =>
  (cityId: string, date: string): boolean =>
    date < (book.todayOf[cityId] ?? book.utcToday);

/**
 * Everything open at `now`, marked to the newest quotes, a step at a time: the book, then each city's quotes (a few
 * milliseconds each on a 30-day cache), then the marks. Only what changed since the last read is read again: the
 * quotes only when the quotes changed (and then only those of cities asked for), the records and locks only parsed
 * when their stored text changed (PositionRepository), and only positions whose row or quote changed are priced
 * (IncrementalPricer).
 */
function* positionsRead(cache: Cache, p: PositionsParams, memo: PositionsMemo): SlicedRead<PricedBook> {
  const nowMs = p.now.getTime();
  const zones = new Map(p.cities.map((c) => [c.city_id, c.tz]));
  const today = new Map(p.cities.map((c) => [c.city_id, localDate(nowMs, c.tz)]));
  const booksVersion = `${p.quotesVersion}|${p.asOf}`;
  if (memo.booksVersion !== booksVersion) {
    memo.books.clear();
    memo.booksVersion = booksVersion;
  }
  const read = cache.positions.open(openSinceDate(nowMs), undefined, p.asOf);
  const live = (pick: InsurancePickView) =>
    pick.market_date >= (today.get(pick.city_id) ?? localDate(nowMs, zones.get(pick.city_id) ?? 'UTC'));
  const open = { ...read, picks: read.picks.filter(live) };
  // the days on screen are each city's today: the one that began first, before the horizon, misses picks
  const picksNote = booksNote(
    read.horizon,
    p.cities.map((c) => localDay(today.get(c.city_id) as string, c.tz).startMs),
  );
  const killsNotReceived = read.killsNotReceived.filter(live);
  yield;
  // one read of a city's quotes, however many of its positions ask, kept until the quotes change
  const cities = new Set([
    ...open.strategies.map((s) => s.record.city_id),
    ...open.locks.map((l) => l.city_id),
    ...open.picks.map((pick) => pick.city_id),
    ...open.trades.map((t) => t.city_id),
  ]);
  const quotes = (cityId: string): QuoteBook => {
    let book = memo.books.get(cityId);
    if (!book) {
      book = cache.market.quotes(cityId, undefined, p.asOf);
      memo.books.set(cityId, book);
    }
    return book;
  };
  for (const cityId of cities) {
    if (memo.books.has(cityId)) continue;
    quotes(cityId);
    yield;
  }
  const todayOf = Object.fromEntries(today);
  return {
    ...memo.pricer.price(open, quotes),
    picksNote,
    killsNotReceived,
    todayOf,
    utcToday: localDate(nowMs, 'UTC'),
  };
}

/**
 * The Positions store (state/pane-store.ts): the book as of the minute, or of time travel's instant, marked to the
 * quotes of then; each scope's memo keeps the marks and the quote books (positionsRead).
 */
export const POSITIONS_STORE: PaneStoreSpec<PositionsParams, PricedBook> = {
  topics: POSITIONS_PANE_TOPICS,
  ask({ cities, minute, instant }, hub) {
    const { atMs } = instant;
    const now = new Date(atMs ?? minute * 60_000);
    // the book follows from the cache's content, and from the clock only through the dates: what is still live
    const dates = [now.toISOString().slice(0, 10), ...cities.map((c) => localDate(now.getTime(), c.tz))];
    const { key, stamp } = instantAsk(instant, minute);
    return {
      key: JSON.stringify([cities.map((c) => c.city_id), key]),
      stamp: JSON.stringify([dates, stamp]),
      // the quote books kept are read again only when the quotes' version moves
      params: { cities, now, quotesVersion: hub.version(QUOTE_TOPICS), asOf: atMs },
    };
  },
  newRead() {
    const memo = new PositionsMemo();
    return (cache, p) => positionsRead(cache, p, memo);
  },
};
