import type { City } from '../../../contract/cities.js';
import { LineView } from '../../components/line-view.js';
import { hintOf, KEYS } from '../../keys.js';
import { line, seg, selectLine } from '../../theme.js';
import { usePositionsInput } from './use-positions-input.js';
import { usePositionsState } from './use-positions-state.js';

/** Pane 3: what is open now, marked to market: the grand total, by city-day (live, then decided), totals by family. */
export function PositionsPane({ width, height, cities }: { width: number; height: number; cities: readonly City[] }) {
  const state = usePositionsState(cities, width, height);
  usePositionsInput(state);
  const { lines, cursor, offset, bodyHeight } = state;

  const header = line(
    seg('Open positions', 'accent', true),
    seg(
      `  now: m = newest mkta quote, r = the record’s own mark · ${hintOf(KEYS.lists.detail)} (${hintOf(KEYS.positions.raw)} in it)`,
      'muted',
    ),
  );
  const shown = lines.slice(offset, offset + bodyHeight).map((l, i) => selectLine(l.line, offset + i === cursor));
  return <LineView lines={[header, ...shown]} width={width} height={height} />;
}
