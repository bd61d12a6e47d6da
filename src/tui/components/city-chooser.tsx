import { useState } from 'react';
import type { City } from '../../contract/cities.js';
import { marketUnitOf } from '../../domain/units.js';
import { cell } from '../format/text.js';
import { localDayClock } from '../format/time.js';
import { useKeypress } from '../hooks/use-keypress.js';
import { clampScroll, scrollStep } from '../hooks/use-scroll-state.js';
import { hintOf, KEYS, listMove } from '../keys.js';
import { PRIORITY } from '../state/keypress-context.js';
import { useUiActions, useUiState } from '../state/monitor-context.js';
import { type Line, line, seg, selectLine } from '../theme.js';
import { LineView } from './line-view.js';

const K = KEYS.chooser;
const HINT = [`${KEYS.lists.up.label}${KEYS.lists.down.label} move`, hintOf(K.choose), hintOf(K.close)].join('  ');

/** `c`: pick the city the Forecasts pane and the status bar's local clock follow. */
export function CityChooser({
  cities,
  width,
  height,
  nowMs,
}: {
  cities: readonly City[];
  width: number;
  height: number;
  nowMs: number;
}) {
  const actions = useUiActions();
  const { city } = useUiState();
  const [cursor, setCursor] = useState(() =>
    Math.max(
      0,
      cities.findIndex((c) => c.city_id === city),
    ),
  );
  const listHeight = Math.max(1, height - 1);
  const { offset } = clampScroll({ cursor, offset: cursor - listHeight + 1 }, cities.length, listHeight);

  useKeypress(PRIORITY.overlay, (input, key) => {
    if (K.close.match(input, key)) {
      actions.closeOverlay();
      return true;
    }
    if (KEYS.everywhere.quit.match(input, key) && !key.ctrl) return false;
    const chosen = cities[cursor];
    if (K.choose.match(input, key) && chosen) {
      actions.chooseCity(chosen.city_id);
      return true;
    }
    const move = listMove(input, key);
    const by = move ? scrollStep(move, listHeight) : 0;
    if (by === null) setCursor(0);
    else if (by !== 0) setCursor((c) => Math.max(0, Math.min(cities.length - 1, c + by)));
    return true;
  });

  const lines: Line[] = [line(seg('Choose a city', 'accent', true), seg(`  ${HINT}`, 'muted'))];
  if (cities.length === 0) lines.push(line(seg('  No cities cached yet: the first sync brings them.', 'muted')));
  cities.slice(offset, offset + listHeight).forEach((c, i) => {
    const text = `${cell(c.city_id, 12)}${cell(c.city_name, 18)}${cell(c.icao, 6)}°${marketUnitOf(c.country)}  ${cell(c.tz, 20)}${localDayClock(nowMs, c.tz)}`;
    lines.push(selectLine([seg(text, c.city_id === city ? 'accent' : undefined)], offset + i === cursor));
  });
  return <LineView lines={lines} width={width} height={height} />;
}
