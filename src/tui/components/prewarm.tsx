import { useEffect, useRef } from 'react';
import { FEED_READ_TOPICS } from '../../cache/index.js';
import type { City } from '../../contract/cities.js';
import { forecastAsk, forecastRead } from '../panes/forecasts/forecast-read.js';
import { pageOf } from '../panes/forecasts/use-forecasts-state.js';
import { positionsAsk, positionsKept, QUOTE_TOPICS } from '../panes/positions/positions-model.js';
import { feedStrip } from '../panes/signals/use-signals-state.js';
import { LIVE } from '../state/kept-reads.js';
import { useDeps, useUiState } from '../state/monitor-context.js';

/**
 * Reads the panes not shown yet in the background once the first frame is drawn, a slice at a time (their kept reads:
 * state/kept-read.ts, state/keyset-strip.ts), so that the first key that shows each of them draws it from memory:
 * the open positions marked to market, the newest signals, the chosen city's forecast, and that forecast's page laid
 * out at the pane's size once its read is in (the first layout of a page is most of what the key showing it would
 * cost). Draws nothing. The live reads: a monitor started at an instant (--at) comes back to them with Esc.
 */
export function Prewarm({ cities, width, height }: { cities: readonly City[]; width: number; height: number }) {
  const { cache, hub, now, settlement } = useDeps();
  const { city: chosen } = useUiState();
  const ready = cities.length > 0;
  // the size when a read comes in, not when it was asked for (the terminal may have been resized meanwhile)
  const size = useRef({ width, height });
  size.current = { width, height };
  // once, when there are cities to read for (at the start, or when the first sync brought them)
  // biome-ignore lint/correctness/useExhaustiveDependencies: a warm-up at the start; the panes keep their reads fresh
  useEffect(() => {
    if (!ready) return;
    const nowMs = now().getTime();
    const minute = Math.floor(nowMs / 60_000);
    positionsKept(hub, LIVE).refresh(cache, positionsAsk(cities, minute, hub.version(QUOTE_TOPICS), LIVE));
    const strip = feedStrip(hub, cache);
    strip.observe(hub.version(FEED_READ_TOPICS));
    // the pane's window (its height less the column titles) and the page below it, which the pane prefetches
    strip.warm(2 * Math.max(1, height - 1) + 1);
    const city = cities.find((c) => c.city_id === chosen) ?? cities[0] ?? null;
    const forecasts = forecastRead(hub, LIVE);
    const ask = forecastAsk(city, settlement, minute, nowMs, LIVE);
    forecasts.refresh(cache, ask);
    // the page in the market's unit, as the pane first shows it, when the background read brings its data
    const layOut = () => {
      const data = forecasts.peek(ask);
      if (data === undefined) return;
      stop();
      pageOf(data, false, size.current.width, size.current.height);
    };
    const stop = forecasts.subscribe(layOut);
    layOut();
    return stop;
  }, [ready]);
  return null;
}
