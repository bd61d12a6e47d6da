import { jsonLines } from '../../format/json-lines.js';
import { useKeypress } from '../../hooks/use-keypress.js';
import { KEYS, listMove } from '../../keys.js';
import { PRIORITY } from '../../state/keypress-context.js';
import { useUiActions } from '../../state/monitor-context.js';
import { moveWindow } from '../move-window.js';
import type { HistoryState } from './use-history-state.js';

const K = KEYS.history;

/**
 * ←/→ (or [ ]) change the table, `/` opens the filter prompt, `s` toggles the summaries; the list keys move
 * through the rows or scroll the summaries; Enter shows a row as stored.
 */
export function useHistoryInput(state: HistoryState): void {
  const actions = useUiActions();
  useKeypress(PRIORITY.pane, (input, key) => {
    if (K.nextTable.match(input, key)) state.stepTable(1);
    else if (K.previousTable.match(input, key)) state.stepTable(-1);
    else if (K.filter.match(input, key)) state.editFilter();
    else if (K.summaries.match(input, key)) state.toggleSummary();
    else {
      const move = listMove(input, key);
      if (move && state.summary) state.scrollSummary(move);
      else if (move) return moveWindow(state.list, move);
      else if (KEYS.lists.detail.match(input, key) && state.list.selectedRow && !state.summary) {
        const title = `${state.table} row`;
        actions.openOverlay({ kind: 'detail', title, lines: jsonLines(state.list.selectedRow.row) });
      } else return false;
    }
    return true;
  });
}
