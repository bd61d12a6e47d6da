import { useMemo } from 'react';
import type { City } from '../../../contract/cities.js';
import { cityNames } from '../../../domain/city-names.js';
import { LineView } from '../../components/line-view.js';
import { type Line, line, seg, selectLine } from '../../theme.js';
import { signalColumns, signalHeader, signalLine } from './signal-columns.js';
import { useSignalsInput } from './use-signals-input.js';
import { useSignalsState } from './use-signals-state.js';

/** Pane 2: every signal, newest first, one row each, its city by name; Enter opens the whole story. */
export function SignalsPane({ width, height, cities }: { width: number; height: number; cities: readonly City[] }) {
  const name = useMemo(() => cityNames(cities), [cities]);
  const state = useSignalsState(Math.max(1, height - 1));
  useSignalsInput(state, width, name);
  const { list } = state;

  const columns = signalColumns(width, name);
  const lines: Line[] = [signalHeader(columns, width)];
  if (list.rows.length === 0) {
    lines.push(
      line(seg('  No signals cached yet: picks, kills, edge trades, strategy records and locks appear here.', 'muted')),
    );
  }
  list.rows.forEach((s, i) => {
    lines.push(selectLine(signalLine(s, columns, width), i === list.selected));
  });
  return <LineView lines={lines} width={width} height={height} />;
}
