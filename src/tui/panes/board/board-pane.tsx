import { Box } from 'ink';
import { boardPicksNote } from '../../../board/board-row.js';
import type { City } from '../../../contract/cities.js';
import { LineView } from '../../components/line-view.js';
import { hintOf, KEYS } from '../../keys.js';
import { line, seg, selectLine } from '../../theme.js';
import { boardColumns, boardLine, boardTitle } from './board-columns.js';
import { SORT_NAMES } from './board-sort.js';
import { BoardStrips } from './board-strips.js';
import { useBoardInput } from './use-board-input.js';
import { useBoardState } from './use-board-state.js';

/** Pane 1, the landing pane: a row a city of the day, where the running high, the buckets and the prices stand. */
export function BoardPane({ width, height, cities }: { width: number; height: number; cities: readonly City[] }) {
  const state = useBoardState(cities, width, height);
  useBoardInput(state);
  const { rows, cursor, offset, bodyHeight, sort } = state;
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
  // the rows the board leaves free go to its strips (board-strips.tsx): the selected row's city in detail, its best
  // edge's own record among it
  const free = height - 2 - shown.length - under.length;
  return (
    <Box flexDirection="column" width={width} height={height}>
      <LineView
        lines={[header, [seg('  '), ...boardTitle(columns)], ...shown, ...under]}
        width={width}
        height={height - free}
      />
      <BoardStrips width={width} height={free} cities={cities} selected={rows[cursor]} />
    </Box>
  );
}
