import { useEffect, useMemo, useReducer } from 'react';
import type { Cache } from '../../cache/index.js';
import { type ReplayState, replayReducer } from '../state/replay.js';
import type { ReplayActions } from '../state/replay-context.js';

/**
 * Time travel's state and actions, for the app to provide (state/replay-context.ts): the reducer of state/replay.ts,
 * fed the market clock's now (`now`), the cache's first instant when a replay starts, and the play timer's ticks (one
 * every `tickMs` while playing, each advancing the replay by `tickMs` x its speed).
 */
export function useReplayState(
  cache: Cache,
  now: () => Date,
  tickMs: number,
  initial: () => ReplayState,
): [ReplayState, ReplayActions] {
  const [replay, dispatch] = useReducer(replayReducer, undefined, initial);
  const actions = useMemo<ReplayActions>(
    () => ({
      start: (atMs, date, day = false) =>
        dispatch({
          type: 'start',
          atMs,
          date,
          firstMs: cache.history.span()?.firstMs ?? atMs,
          day,
          hourlyBeforeMs: cache.retention.thinnedBefore() ?? undefined,
        }),
      step: (by) => dispatch({ type: 'step', by, nowMs: now().getTime() }),
      play: () => dispatch({ type: 'play' }),
      speed: (by) => dispatch({ type: 'speed', by }),
      live: () => dispatch({ type: 'live' }),
    }),
    [cache, now],
  );
  const playing = replay?.playing ?? false;
  useEffect(() => {
    if (!playing) return;
    const timer = setInterval(() => dispatch({ type: 'tick', elapsedMs: tickMs, nowMs: now().getTime() }), tickMs);
    return () => clearInterval(timer);
  }, [playing, tickMs, now]);
  return [replay, actions];
}
