import { useEffect, useRef } from 'react';
import type { City } from '../../contract/cities.js';
import { usePaneStores } from '../panes/pane-stores.js';
import { useDeps, useUiState } from '../state/monitor-context.js';
import { LIVE } from '../state/pane-store.js';

/**
 * Warms the panes' stores once the first frame is drawn (panes/pane-stores.ts): the panes not shown yet read in the
 * background, a slice at a time, so that the first key that shows each of them draws it from memory. Draws nothing.
 * The live reads: a monitor started at an instant (--at) comes back to them with Esc.
 */
export function Prewarm({ cities, width, height }: { cities: readonly City[]; width: number; height: number }) {
  const { now, settlement } = useDeps();
  const { city: chosen } = useUiState();
  const stores = usePaneStores();
  const ready = cities.length > 0;
  // the size when a read comes in, not when it was asked for (the terminal may have been resized meanwhile)
  const size = useRef({ width, height });
  size.current = { width, height };
  // once, when there are cities to read for (at the start, or when the first sync brought them)
  // biome-ignore lint/correctness/useExhaustiveDependencies: a warm-up at the start; the panes keep their reads fresh
  useEffect(() => {
    if (!ready) return;
    const nowMs = now().getTime();
    const city = cities.find((c) => c.city_id === chosen) ?? cities[0] ?? null;
    const inputs = { cities, city, settlement, minute: Math.floor(nowMs / 60_000), nowMs, instant: LIVE };
    return stores.warm({
      ...inputs,
      get width() {
        return size.current.width;
      },
      get height() {
        return size.current.height;
      },
    });
  }, [ready]);
  return null;
}
