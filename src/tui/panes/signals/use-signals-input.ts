import type { CityName } from '../../../domain/city-names.js';
import { useKeypress } from '../../hooks/use-keypress.js';
import { KEYS, listMove } from '../../keys.js';
import { PRIORITY } from '../../state/keypress-context.js';
import { useUiActions } from '../../state/monitor-context.js';
import { moveWindow } from '../move-window.js';
import { signalDetail } from './signal-detail.js';
import type { SignalsState } from './use-signals-state.js';

/** The list keys move through the feed; Enter opens the selected signal's whole story. */
export function useSignalsInput({ list, payloads }: SignalsState, width: number, name: CityName): void {
  const actions = useUiActions();
  useKeypress(PRIORITY.pane, (input, key) => {
    const move = listMove(input, key);
    if (move) return moveWindow(list, move);
    if (KEYS.lists.detail.match(input, key) && list.selectedRow) {
      const s = list.selectedRow;
      actions.openOverlay({
        kind: 'detail',
        title: `Signal ${s.kind} ${name(s.city_id)} ${s.market_date}`,
        lines: signalDetail(s, payloads(s), width, name),
      });
      return true;
    }
    return false;
  });
}
