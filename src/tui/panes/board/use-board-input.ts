import { useKeypress } from '../../hooks/use-keypress.js';
import { scrollStep } from '../../hooks/use-scroll-state.js';
import { useSnoozeCity } from '../../hooks/use-snooze-city.js';
import { KEYS, listMove } from '../../keys.js';
import { PRIORITY } from '../../state/keypress-context.js';
import { useUiActions } from '../../state/monitor-context.js';
import type { BoardState } from './use-board-state.js';

/**
 * The list keys move the cursor; `o` changes the order; Enter opens the city on Forecasts, with payoff by outcome (on
 * a `tomorrow` row too, its own day there, and a notice says so); `z` snoozes the row's city (the same snooze as the Alerts pane's). `u` switches °F/°C for the other panes, as
 * everywhere, and says so: the board keeps each market in the unit it settles in (its buckets are in that unit).
 */
export function useBoardInput({ rows, cursor, bodyHeight, scroll, nextSort }: BoardState): void {
  const actions = useUiActions();
  const snooze = useSnoozeCity();
  useKeypress(PRIORITY.pane, (input, key) => {
    const move = listMove(input, key);
    if (move) {
      const by = scrollStep(move, bodyHeight);
      if (by === null) scroll.home();
      else scroll.move(by);
    } else if (KEYS.board.sort.match(input, key)) nextSort();
    else if (KEYS.board.snooze.match(input, key)) snooze(rows[cursor]?.cityId ?? null);
    else if (KEYS.board.open.match(input, key)) {
      const row = rows[cursor];
      if (!row) return false;
      actions.openCity(row.cityId);
      // Forecasts shows a city's own day: tomorrow's market is its board row (and `export board --date`)
      if (row.tomorrow)
        actions.notice(`Forecasts shows ${row.name}'s current market day; ${row.date} is on the board's tomorrow row`);
    } else if (KEYS.everywhere.unit.match(input, key)) {
      actions.toggleUnit();
      actions.notice('°F/°C switched on Forecasts and History; the board shows each market in the unit it settles in');
    } else return false;
    return true;
  });
}
