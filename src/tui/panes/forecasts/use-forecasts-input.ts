import { useKeypress } from '../../hooks/use-keypress.js';
import { scrollStep } from '../../hooks/use-scroll-state.js';
import { KEYS, listMove } from '../../keys.js';
import { PRIORITY } from '../../state/keypress-context.js';
import { useUiActions, useUiState } from '../../state/monitor-context.js';
import type { ForecastsState } from './use-forecasts-state.js';

/** The list keys scroll the page; a page keeps one line of the last in view. Esc: back to the board, if from there. */
export function useForecastsInput({ maxOffset, scroll }: ForecastsState, height: number): void {
  const { openedFromBoard } = useUiState();
  const actions = useUiActions();
  useKeypress(PRIORITY.pane, (input, key) => {
    if (openedFromBoard && KEYS.lists.back.match(input, key)) {
      actions.showPane('board');
      return true;
    }
    const move = listMove(input, key);
    if (!move) return false;
    const by = scrollStep(move, height - 1);
    if (by === null) scroll.home();
    else scroll.move(by, maxOffset + 1, 1);
    return true;
  });
}
