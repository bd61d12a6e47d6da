import type { Statement } from 'better-sqlite3';
import type { City } from '../contract/cities.js';
import { AlertReads } from './alert-reads.js';
import { CountedQueries, type ReadStats } from './counted-queries.js';
import { FeedReads } from './feed-reads.js';
import { type BrowseFilter, HistoryReads } from './history-reads.js';
import { type HistorySummary, historySummary } from './history-summary.js';
import { MarketReads } from './market-reads.js';
import { PositionReads } from './position-reads.js';

/**
 * The terminal UI's pane reads, beside `reads` (snapshots) and `inbox`: the Signals feed, positions, alerts,
 * browsing and summaries, market quotes. Every query is counted in `stats`.
 */
export class PaneReads {
  private readonly q: CountedQueries;
  readonly feed: FeedReads;
  readonly history: HistoryReads;
  readonly positions: PositionReads;
  readonly market: MarketReads;
  readonly alerts: AlertReads;

  constructor(prepared: (sql: string) => Statement<unknown[]>) {
    this.q = new CountedQueries(prepared);
    // a handful of rows, read once a page: a feed page needs every city's zone before its scans start
    this.feed = new FeedReads(this.q, () => new Map(this.cities().map((c) => [c.city_id, c.tz])));
    this.history = new HistoryReads(this.q);
    this.positions = new PositionReads(this.q);
    this.market = new MarketReads(this.q);
    this.alerts = new AlertReads(this.q);
  }

  /** Queries run and rows read so far by every pane read. */
  get stats(): Readonly<ReadStats> {
    return this.q.stats;
  }

  cities(): City[] {
    return this.q
      .all<{ json: string }>('SELECT json FROM cities ORDER BY city_id')
      .map((r) => JSON.parse(r.json) as City);
  }

  summary(filter: BrowseFilter): HistorySummary {
    return historySummary(this.q, filter);
  }
}
