import { useCallback } from 'react';
import type { Cache, QuoteBook } from '../../../cache/index.js';
import type { City } from '../../../contract/cities.js';
import { addDays, localDate } from '../../../domain/city-time.js';
import { pricePositions } from '../../../domain/position-pnl.js';
import { LineView } from '../../components/line-view.js';
import { useCacheQuery } from '../../hooks/use-cache-query.js';
import { useKeypress } from '../../hooks/use-keypress.js';
import { clampScroll, useScrollState } from '../../hooks/use-scroll-state.js';
import { listMove } from '../../keys.js';
import type { CacheTopic } from '../../state/cache-topics.js';
import { PRIORITY } from '../../state/keypress-context.js';
import { useDeps, useUiActions } from '../../state/monitor-context.js';
import { line, seg, selectLine } from '../../theme.js';
import { positionLines } from './position-lines.js';

const POSITION_TOPICS: readonly CacheTopic[] = [
  'no24',
  'yescore',
  'svc-max-picks',
  'fusion-locks',
  'insurance-picks',
  'edge-trades',
  'historical/mkta_buckets_history',
];

/** Pane 2: what is open now, marked to market, and the totals by family. */
export function PositionsPane({ width, height, cities }: { width: number; height: number; cities: readonly City[] }) {
  const { now } = useDeps();
  const actions = useUiActions();
  const [scroll, scrollActions] = useScrollState();

  const read = useCallback(
    (cache: Cache) => {
      // a market is live until its city's day is over: yesterday in UTC covers every zone
      const since = addDays(now().toISOString().slice(0, 10), -1);
      const zones = new Map(cities.map((c) => [c.city_id, c.tz]));
      const nowMs = now().getTime();
      const read = cache.panes.positions.open(since);
      const open = {
        ...read,
        picks: read.picks.filter((p) => p.market_date >= localDate(nowMs, zones.get(p.city_id) ?? 'UTC')),
      };
      const books = new Map<string, QuoteBook>();
      const quotes = (cityId: string) => {
        let book = books.get(cityId);
        if (!book) {
          book = cache.panes.market.quotes(cityId);
          books.set(cityId, book);
        }
        return book;
      };
      return positionLines(pricePositions(open, quotes), width);
    },
    [cities, now, width],
  );
  const lines = useCacheQuery(POSITION_TOPICS, read);

  const bodyHeight = Math.max(1, height - 1);
  const { cursor, offset } = clampScroll(scroll, lines.length, bodyHeight);

  useKeypress(PRIORITY.pane, (input, key) => {
    const move = listMove(input, key);
    if (move === 'home') scrollActions.home();
    else if (move) {
      const by = move === 'down' ? 1 : move === 'up' ? -1 : move === 'pageDown' ? bodyHeight : -bodyHeight;
      scrollActions.move(by, lines.length, bodyHeight);
    } else if (key.return) {
      const detail = lines[cursor]?.detail;
      if (!detail) return false;
      const json = JSON.stringify(detail.json, null, 2).split('\n');
      actions.openOverlay({ kind: 'detail', title: detail.title, lines: json.map((t) => line(t)) });
    } else return false;
    return true;
  });

  const header = line(
    seg('Open positions', 'accent', true),
    seg('  now: m = newest mkta quote, r = the record’s own mark · Enter detail', 'muted'),
  );
  const shown = lines.slice(offset, offset + bodyHeight).map((l, i) => selectLine(l.line, offset + i === cursor));
  return <LineView lines={[header, ...shown]} width={width} height={height} />;
}
