import type { City } from '../../../contract/cities.js';
import { jsonLines } from '../../format/json-lines.js';
import { localStamp } from '../../format/time.js';
import { useKeypress } from '../../hooks/use-keypress.js';
import { hintOf, KEYS, listMove } from '../../keys.js';
import { PRIORITY } from '../../state/keypress-context.js';
import { useDeps, useUiActions } from '../../state/monitor-context.js';
import { replayTargetOfRow } from '../../state/replay-target.js';
import { line, seg } from '../../theme.js';
import { moveWindow } from '../move-window.js';
import type { HistoryState } from './use-history-state.js';

const K = KEYS.history;

/**
 * ←/→ (or [ ]) change the table, `/` opens the filter prompt, `s` toggles the summaries; the list keys move
 * through the rows or scroll the summaries; Enter shows a row as stored (a past day's, with Enter there replaying it).
 */
export function useHistoryInput(state: HistoryState, cities: readonly City[]): void {
  const actions = useUiActions();
  const { now } = useDeps();
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
        const { row } = state.list.selectedRow;
        // a past day's row: its detail says where Enter replays it (time travel)
        const replay = replayTargetOfRow(row, cities, now().getTime()) ?? undefined;
        const lines = jsonLines(row);
        if (replay) {
          const tz = cities.find((c) => c.city_id === replay.cityId)?.tz ?? 'UTC';
          const hint = `${hintOf(KEYS.travel.replayDay)}: ${replay.cityId}'s ${replay.date} from ${localStamp(replay.atMs, tz).slice(11)} local`;
          lines.unshift(line(seg(hint, 'accent')), []);
        }
        actions.openOverlay({ kind: 'detail', title, lines, replay });
      } else return false;
    }
    return true;
  });
}
