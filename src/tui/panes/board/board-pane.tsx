import { Box } from 'ink';
import { boardPicksNote } from '../../../board/board-row.js';
import type { City } from '../../../contract/cities.js';
import { LineView } from '../../components/line-view.js';
import { useTerminalSize } from '../../hooks/use-terminal-size.js';
import { hintOf, KEYS } from '../../keys.js';
import { line, seg, selectLine } from '../../theme.js';
import { boardColumns, boardLine, boardTitle } from './board-columns.js';
import { SORT_NAMES } from './board-sort.js';
import { CityDetailStrip, DETAIL_MIN_TERMINAL_ROWS } from './detail/city-detail-strip.js';
import { useBoardInput } from './use-board-input.js';
import { useBoardState } from './use-board-state.js';

/** Pane 1, the landing pane: a row a city of the day, where the running high, the buckets and the prices stand. */
export function BoardPane({ width, height, cities }: { width: number; height: number; cities: readonly City[] }) {
  const state = useBoardState(cities, width, height);
  useBoardInput(state);
  const { rows, cursor, offset, bodyHeight, sort } = state;
  const { rows: terminalRows } = useTerminalSize();
  // the selected row's pointer takes two columns
  const columns = boardColumns(rows, width - 2);
  // the legend of the ladder stays (`·` under 2% since the peak began); on a narrow terminal the key hints go (the
  // help lists them) and the legend stands without its name, under the column titled `ladder`
  const hints = width >= 100 ? `  ${hintOf(KEYS.board.sort)} · ${hintOf(KEYS.board.open)} ·` : ' ';
  // a city's tomorrow row (its next market day, listed) is no city of its own
  const cityCount = rows.filter((r) => !r.tomorrow).length;
  const header = line(
    seg(`Board · ${cityCount} cities · by ${SORT_NAMES[sort]}`, 'accent', true),
    seg(`${hints} ${width >= 100 ? 'ladder ' : ''}x dead · <2% - alive * favourite [ ] held`, 'muted'),
  );
  if (rows.length === 0)
    return (
      <LineView
        lines={[header, line(seg('No cities cached yet: the first sync brings them.', 'muted'))]}
        width={width}
        height={height}
      />
    );
  const shown = rows
    .slice(offset, offset + bodyHeight)
    .map((r, i) => selectLine(boardLine(r, columns), offset + i === cursor));
  // the book's horizon under the board: staked and P&L of a day begun before it leave out picks never received
  const picks = boardPicksNote(rows);
  const under = picks === null ? [] : [line(seg(`  ${picks}`, 'warn'))];
  // under the rows the board leaves free, the selected row's city in detail (its best edge's own record among it),
  // on a terminal of 30 rows or more
  const free = height - 2 - shown.length - under.length;
  const strip = terminalRows >= DETAIL_MIN_TERMINAL_ROWS ? free : 0;
  return (
    <Box flexDirection="column" width={width} height={height}>
      <LineView
        lines={[header, [seg('  '), ...boardTitle(columns)], ...shown, ...under]}
        width={width}
        height={height - strip}
      />
      {strip > 0 ? <CityDetailStrip width={width} height={strip} cities={cities} selected={rows[cursor]} /> : null}
    </Box>
  );
}
