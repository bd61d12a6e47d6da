import { useCallback } from 'react';
import type { Cache } from '../../../cache/index.js';
import type { City } from '../../../contract/cities.js';
import { useCacheQuery } from '../../hooks/use-cache-query.js';
import { useCacheVersion } from '../../hooks/use-cache-version.js';
import { clampScroll, type ScrollActions, useScrollState } from '../../hooks/use-scroll-state.js';
import { type CacheTopic, POSITION_TOPICS } from '../../state/cache-topics.js';
import type { ChangeHub } from '../../state/change-hub.js';
import { useDeps } from '../../state/monitor-context.js';
import { useReplayInstant } from '../../state/replay-context.js';
import type { PositionLine } from './position-lines.js';
import { PositionsModel } from './positions-model.js';

/** The positions and the quotes they are marked with. */
const POSITIONS_PANE_TOPICS: readonly CacheTopic[] = [...POSITION_TOPICS, 'historical/mkta_buckets_history'];
const QUOTE_TOPICS: readonly CacheTopic[] = ['historical/mkta_buckets_history'];

/** One model a running monitor (its change hub): the lines kept between visits to the pane. */
const models = new WeakMap<ChangeHub, PositionsModel>();

function modelOf(hub: ChangeHub): PositionsModel {
  let model = models.get(hub);
  if (!model) {
    model = new PositionsModel();
    models.set(hub, model);
  }
  return model;
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
  const { now, hub } = useDeps();
  const [scroll, scrollActions] = useScrollState();
  const all = useCacheVersion(POSITIONS_PANE_TOPICS);
  const quotes = useCacheVersion(QUOTE_TOPICS);
  // time travel: what was open at its instant, marked then
  const { atMs } = useReplayInstant();
  const read = useCallback(
    (cache: Cache) =>
      modelOf(hub).lines(cache, cities, atMs === undefined ? now() : new Date(atMs), width, { all, quotes }, atMs),
    [hub, cities, now, width, all, quotes, atMs],
  );
  const lines = useCacheQuery(POSITIONS_PANE_TOPICS, read);
  const bodyHeight = Math.max(1, height - 1);
  const { cursor, offset } = clampScroll(scroll, lines.length, bodyHeight);
  return { lines, cursor, offset, bodyHeight, scroll: scrollActions };
}
