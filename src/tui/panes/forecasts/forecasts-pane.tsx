import { useMemo } from 'react';
import type { City } from '../../../contract/cities.js';
import { marketUnitOf } from '../../../domain/units.js';
import { LineView } from '../../components/line-view.js';
import { cityToday } from '../../format/time.js';
import { useCacheVersion } from '../../hooks/use-cache-version.js';
import { useKeypress } from '../../hooks/use-keypress.js';
import { useNow } from '../../hooks/use-now.js';
import { useScrollState } from '../../hooks/use-scroll-state.js';
import { listMove } from '../../keys.js';
import type { CacheTopic } from '../../state/cache-topics.js';
import { PRIORITY } from '../../state/keypress-context.js';
import { useDeps, useUiState } from '../../state/monitor-context.js';
import { fitLine, type Line, line, seg } from '../../theme.js';
import {
  bucketLines,
  currentLines,
  ensembleLines,
  forecastView,
  headerLines,
  hourlyLines,
  modelRangeLines,
  primaryLines,
} from './forecast-sections.js';

const FORECAST_TOPICS: readonly CacheTopic[] = [
  'forecasts',
  'current',
  'historical/mkta_buckets_history',
  'historical/metar_observations_history',
];

/** Two columns from this width on; below it the sections stack. */
const TWO_COLUMNS = 110;

/** Pane 4: one city's forecast, models, the day so far and the market's buckets. */
export function ForecastsPane({ width, height, cities }: { width: number; height: number; cities: readonly City[] }) {
  const { cache, now } = useDeps();
  const { city: chosen, otherUnit } = useUiState();
  const version = useCacheVersion(FORECAST_TOPICS);
  const [scroll, scrollActions] = useScrollState();
  // the local clock and the chart's now mark move once a minute, not with every tick of the status bar
  const minute = Math.floor(useNow() / 60_000);
  const city = cities.find((c) => c.city_id === chosen) ?? cities[0];

  // biome-ignore lint/correctness/useExhaustiveDependencies: version is the cache's change counter
  const lines = useMemo((): Line[] => {
    if (!city) return [line(seg('No cities cached yet: the first sync brings them.', 'muted'))];
    const nowMs = now().getTime();
    const marketUnit = marketUnitOf(city.country);
    const unit = otherUnit ? (marketUnit === 'F' ? 'C' : 'F') : marketUnit;
    const today = cityToday(nowMs, city.tz);
    const rows = cache.reads.latestForecasts(city.city_id);
    // four snapshots of one market's 11 buckets: enough to find the newest one of the forecast's day
    const quotes = cache.panes.market.quotes(city.city_id, 44);
    const v = forecastView(
      {
        city,
        marketUnit,
        unit,
        nowMs,
        current: cache.reads.latestCurrent(city.city_id),
        metar: cache.panes.market.metarSince(city.city_id, today.startMs),
        quotes: [],
      },
      rows,
    );
    v.quotes = quotes.latestSnapshot(v.primary?.local_date ?? today.date);
    const two = width >= TWO_COLUMNS;
    const half = two ? Math.floor((width - 3) / 2) : width;
    const chartHeight = height >= 30 ? 10 : 7;
    const left = [...primaryLines(v, half), [], ...ensembleLines(v, half), [], ...modelRangeLines(v, half)];
    const right = [...currentLines(v, half), [], ...bucketLines(v, half), [], ...hourlyLines(v, half, chartHeight)];
    const body = two ? sideBySide(left, right, half) : [...left, [], ...right];
    return [...headerLines(v), [], ...body];
  }, [cache, city, now, otherUnit, width, height, version, minute]);

  const maxOffset = Math.max(0, lines.length - height);
  const offset = Math.min(scroll.cursor, maxOffset);
  useKeypress(PRIORITY.pane, (input, key) => {
    const move = listMove(input, key);
    if (!move) return false;
    if (move === 'home') scrollActions.home();
    else {
      const by = move === 'down' ? 1 : move === 'up' ? -1 : move === 'pageDown' ? height - 1 : 1 - height;
      scrollActions.move(by, maxOffset + 1, 1);
    }
    return true;
  });
  return <LineView lines={lines} width={width} height={height} offset={offset} />;
}

function sideBySide(left: Line[], right: Line[], half: number): Line[] {
  const out: Line[] = [];
  for (let i = 0; i < Math.max(left.length, right.length); i++) {
    out.push([...fitLine(left[i] ?? [], half), seg(' │ ', 'muted'), ...(right[i] ?? [])]);
  }
  return out;
}
