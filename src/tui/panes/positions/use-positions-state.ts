import { useCallback } from 'react';
import type { Cache, QuoteBook } from '../../../cache/index.js';
import type { City } from '../../../contract/cities.js';
import { addDays, localDate } from '../../../domain/city-time.js';
import { pricePositions } from '../../../domain/position-pnl.js';
import { useCacheQuery } from '../../hooks/use-cache-query.js';
import { clampScroll, type ScrollActions, useScrollState } from '../../hooks/use-scroll-state.js';
import type { CacheTopic } from '../../state/cache-topics.js';
import { useDeps } from '../../state/monitor-context.js';
import { type PositionLine, positionLines } from './position-lines.js';

/** The positions and the quotes they are marked with. */
const POSITION_TOPICS: readonly CacheTopic[] = [
  'no24',
  'yescore',
  'svc-max-picks',
  'fusion-locks',
  'insurance-picks',
  'edge-trades',
  'historical/mkta_buckets_history',
];

/** Everything open at `now`, marked to the newest quotes, as the pane's lines. */
function readPositions(cache: Cache, cities: readonly City[], now: Date, width: number): PositionLine[] {
  // a market is live until its city's day is over: yesterday in UTC covers every zone
  const since = addDays(now.toISOString().slice(0, 10), -1);
  const zones = new Map(cities.map((c) => [c.city_id, c.tz]));
  const nowMs = now.getTime();
  const read = cache.positions.open(since);
  const open = {
    ...read,
    picks: read.picks.filter((p) => p.market_date >= localDate(nowMs, zones.get(p.city_id) ?? 'UTC')),
  };
  // one read of a city's quotes, however many of its positions ask
  const books = new Map<string, QuoteBook>();
  const quotes = (cityId: string) => {
    let book = books.get(cityId);
    if (!book) {
      book = cache.market.quotes(cityId);
      books.set(cityId, book);
    }
    return book;
  };
  return positionLines(pricePositions(open, quotes), width);
}

export interface PositionsState {
  lines: PositionLine[];
  /** The selected line and the first one shown, clamped to the lines there are now. */
  cursor: number;
  offset: number;
  /** Lines below the pane's header. */
  bodyHeight: number;
  scroll: ScrollActions;
}

export function usePositionsState(cities: readonly City[], width: number, height: number): PositionsState {
  const { now } = useDeps();
  const [scroll, scrollActions] = useScrollState();
  const read = useCallback((cache: Cache) => readPositions(cache, cities, now(), width), [cities, now, width]);
  const lines = useCacheQuery(POSITION_TOPICS, read);
  const bodyHeight = Math.max(1, height - 1);
  const { cursor, offset } = clampScroll(scroll, lines.length, bodyHeight);
  return { lines, cursor, offset, bodyHeight, scroll: scrollActions };
}
