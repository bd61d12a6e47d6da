import { jsonLines } from '../../format/json-lines.js';
import { useKeypress } from '../../hooks/use-keypress.js';
import { scrollStep } from '../../hooks/use-scroll-state.js';
import { KEYS, listMove } from '../../keys.js';
import { PRIORITY } from '../../state/keypress-context.js';
import { useUiActions } from '../../state/monitor-context.js';
import type { PositionsState } from './use-positions-state.js';

/** The list keys move the cursor line by line; Enter shows the position under it as stored. */
export function usePositionsInput({ lines, cursor, bodyHeight, scroll }: PositionsState): void {
  const actions = useUiActions();
  useKeypress(PRIORITY.pane, (input, key) => {
    const move = listMove(input, key);
    if (move) {
      const by = scrollStep(move, bodyHeight);
      if (by === null) scroll.home();
      else scroll.move(by, lines.length, bodyHeight);
    } else if (KEYS.lists.detail.match(input, key)) {
      const detail = lines[cursor]?.detail;
      if (!detail) return false;
      actions.openOverlay({ kind: 'detail', title: detail.title, lines: jsonLines(detail.json) });
    } else return false;
    return true;
  });
}
