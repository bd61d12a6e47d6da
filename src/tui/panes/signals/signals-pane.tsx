import { LineView } from '../../components/line-view.js';
import { type Line, line, seg, selectLine } from '../../theme.js';
import { signalColumns, signalHeader, signalLine } from './signal-columns.js';
import { useSignalsInput } from './use-signals-input.js';
import { useSignalsState } from './use-signals-state.js';

/** Pane 2: every signal, newest first, one row each; Enter opens the whole story. */
export function SignalsPane({ width, height }: { width: number; height: number }) {
  const state = useSignalsState(Math.max(1, height - 1));
  useSignalsInput(state, width);
  const { list } = state;

  const columns = signalColumns(width);
  const lines: Line[] = [signalHeader(columns)];
  if (list.rows.length === 0) {
    lines.push(
      line(seg('  No signals cached yet: picks, kills, edge trades, strategy records and locks appear here.', 'muted')),
    );
  }
  list.rows.forEach((s, i) => {
    lines.push(selectLine(signalLine(s, columns), i === list.selected));
  });
  return <LineView lines={lines} width={width} height={height} />;
}
