import { useLayoutEffect, useMemo } from 'react';
import { DEFAULT_ALERT_SETTINGS } from '../alerts/alert-settings.js';
import type { Cache } from '../cache/index.js';
import { localDate } from '../domain/city-time.js';
import { DEFAULT_INTERVALS_MS } from '../domain/streams.js';
import { FailureBoundary } from './components/failure-boundary.js';
import { KeypressProvider } from './components/keypress-provider.js';
import { Shell } from './components/shell.js';
import { useMonitorState } from './hooks/use-monitor-state.js';
import { useReplayState } from './hooks/use-replay.js';
import { PANES, REGISTRY_STORES } from './panes/pane-registry.js';
import { createPaneStores, PaneStoresContext } from './panes/pane-stores.js';
import { ChangeHub } from './state/change-hub.js';
import { DepsContext, type MonitorDeps, UiActionsContext, UiStateContext } from './state/monitor-context.js';
import { type ReplayState, replayReducer } from './state/replay.js';
import { ReplayActionsContext, ReplayContext } from './state/replay-context.js';
import { colourWanted } from './theme.js';
import type { MonitorAppProps } from './types.js';

const systemNow = () => new Date();
const noOffset = () => null;

/**
 * The monitor: the whole terminal UI over one cache. Renders with Ink's `render` or ink-testing-library. A failure
 * anywhere in it (a damaged cache page) ends it with one line (FailureBoundary).
 */
export function MonitorApp(props: MonitorAppProps) {
  return (
    <FailureBoundary file={props.cache.file}>
      <Monitor {...props} />
    </FailureBoundary>
  );
}

/** `--at`: the replay the monitor starts in, its market day the first city's local date at the instant. */
function replayFrom(cache: Cache, atMs: number, cityId: string | null): ReplayState {
  const tz = cache.resources.cities().find((c) => c.city_id === cityId)?.tz ?? 'UTC';
  return replayReducer(null, {
    type: 'start',
    atMs,
    date: localDate(atMs, tz),
    firstMs: cache.history.span()?.firstMs ?? atMs,
    hourlyBeforeMs: cache.retention.thinnedBefore() ?? undefined,
  });
}

/** No city named in the config's `settlement`: every market settles by `metar_c`. */
const NO_SETTLEMENT = {};

function Monitor(props: MonitorAppProps) {
  const { cache, source, onRefresh, coalesceMs = 150, tickMs = 1000 } = props;
  const snoozeMinutes = props.snoozeMinutes ?? DEFAULT_ALERT_SETTINGS.snoozeMinutes;
  const edgeMin = props.edgeMin ?? DEFAULT_ALERT_SETTINGS.edgeMin;
  const settlement = props.settlement ?? NO_SETTLEMENT;
  const now = props.now ?? systemNow;
  const clockOffsetMs = props.clockOffsetMs ?? noOffset;
  // the session's thread announces its commits (and other processes'): then the hub need not look for them
  const others = source.subscribeCacheChanges;
  const hub = useMemo(() => new ChangeHub(cache, coalesceMs, others), [cache, coalesceMs, others]);
  // each pane's store, kept while the monitor runs (panes/pane-stores.ts, made from the registry's factories)
  const stores = useMemo(() => createPaneStores(hub, cache, REGISTRY_STORES), [hub, cache]);
  // during the commit, so no change event between the first render and a later passive effect is lost
  useLayoutEffect(() => {
    hub.start();
    return () => {
      stores.stop();
      hub.stop();
    };
  }, [hub, stores]);
  const colour = props.noColor === undefined ? colourWanted() : !props.noColor;
  const intervals = props.streamIntervalsMs;
  const deps = useMemo<MonitorDeps>(
    () => ({
      cache,
      source,
      now,
      clockOffsetMs,
      onRefresh,
      hub,
      colour,
      tickMs,
      intervals: { ...DEFAULT_INTERVALS_MS, ...intervals },
      snoozeMinutes,
      settlement,
      edgeMin,
    }),
    [cache, source, now, clockOffsetMs, onRefresh, hub, colour, tickMs, intervals, snoozeMinutes, settlement, edgeMin],
  );
  const [state, actions] = useMonitorState(
    () => props.initialCity ?? cache.resources.cities()[0]?.city_id ?? null,
    PANES,
  );
  const [replay, replayActions] = useReplayState(cache, now, tickMs, () =>
    props.replayAt === undefined ? null : replayFrom(cache, props.replayAt, state.city),
  );
  return (
    <DepsContext.Provider value={deps}>
      <UiActionsContext.Provider value={actions}>
        <UiStateContext.Provider value={state}>
          <ReplayActionsContext.Provider value={replayActions}>
            <ReplayContext.Provider value={replay}>
              <PaneStoresContext.Provider value={stores}>
                <KeypressProvider>
                  <Shell />
                </KeypressProvider>
              </PaneStoresContext.Provider>
            </ReplayContext.Provider>
          </ReplayActionsContext.Provider>
        </UiStateContext.Provider>
      </UiActionsContext.Provider>
    </DepsContext.Provider>
  );
}
