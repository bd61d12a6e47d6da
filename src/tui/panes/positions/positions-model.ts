import type { Cache, QuoteBook } from '../../../cache/index.js';
import type { City } from '../../../contract/cities.js';
import { addDays, localDate } from '../../../domain/city-time.js';
import { IncrementalPricer } from '../../../domain/incremental-pricing.js';
import { type PositionLine, positionLines } from './position-lines.js';

/** The change versions a read was made at: of everything the pane reads, and of the quotes alone. */
export interface PositionVersions {
  all: number;
  quotes: number;
}

/**
 * The Positions pane's lines, kept while the monitor runs (not only while the pane is shown): coming back to the
 * pane with nothing changed reads nothing; after a change, only what changed is read again and priced. The quotes
 * are read again only when the quotes changed (and then only those of cities asked for), the records and locks
 * only parsed when their stored text changed (PositionRepository), and only positions whose row or quote changed
 * are priced (IncrementalPricer).
 */
export class PositionsModel {
  private readonly pricer = new IncrementalPricer();
  private readonly books = new Map<string, QuoteBook>();
  private booksVersion: string | null = null;
  private last: { key: string; lines: PositionLine[] } | null = null;

  /**
   * Everything open at `now`, marked to the newest quotes, as the pane's lines. Time travel (`asOf`, the same instant
   * as `now`): what was open then, marked to the quotes of then.
   */
  lines(
    cache: Cache,
    cities: readonly City[],
    now: Date,
    width: number,
    versions: PositionVersions,
    asOf?: number,
  ): PositionLine[] {
    // a market is live until its city's day is over: yesterday in UTC covers every zone
    const since = addDays(now.toISOString().slice(0, 10), -1);
    const nowMs = now.getTime();
    const zones = new Map(cities.map((c) => [c.city_id, c.tz]));
    const today = new Map(cities.map((c) => [c.city_id, localDate(nowMs, c.tz)]));
    // the lines follow from the cache's content, the width, and `now` only through these dates (and the instant)
    const key = JSON.stringify([versions.all, width, since, localDate(nowMs, 'UTC'), [...today], asOf]);
    if (this.last?.key === key) return this.last.lines;

    const booksKey = `${versions.quotes}|${asOf}`;
    if (this.booksVersion !== booksKey) {
      this.books.clear();
      this.booksVersion = booksKey;
    }
    const read = cache.positions.open(since, undefined, asOf);
    const open = {
      ...read,
      picks: read.picks.filter(
        (p) => p.market_date >= (today.get(p.city_id) ?? localDate(nowMs, zones.get(p.city_id) ?? 'UTC')),
      ),
    };
    // one read of a city's quotes, however many of its positions ask, kept until the quotes change
    const quotes = (cityId: string) => {
      let book = this.books.get(cityId);
      if (!book) {
        book = cache.market.quotes(cityId, undefined, asOf);
        this.books.set(cityId, book);
      }
      return book;
    };
    const lines = positionLines(this.pricer.price(open, quotes), width);
    this.last = { key, lines };
    return lines;
  }
}
