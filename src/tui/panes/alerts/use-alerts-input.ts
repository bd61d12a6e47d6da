import type { CityName } from '../../../domain/city-names.js';
import { useKeypress } from '../../hooks/use-keypress.js';
import { useSnoozeCity } from '../../hooks/use-snooze-city.js';
import { KEYS, listMove } from '../../keys.js';
import { PRIORITY } from '../../state/keypress-context.js';
import { useUiActions } from '../../state/monitor-context.js';
import { useReplay } from '../../state/replay-context.js';
import { moveWindow } from '../move-window.js';
import { alertDetail, type ZoneOf } from './alert-lines.js';
import { rejectedLines } from './rejected-lines.js';
import type { AlertsState } from './use-alerts-state.js';

/**
 * The list keys move; `a` acknowledges the selected alert (or says why not), `A` every alert shown; `z` snoozes its
 * city's notifications; `b` opens the Board with its city selected; Enter shows it in full.
 */
export function useAlertsInput(
  { list, acknowledge, acknowledgeAll, rejectedDeliveries }: AlertsState,
  width: number,
  name: CityName,
  zoneOf: ZoneOf,
): void {
  const actions = useUiActions();
  const snoozeCity = useSnoozeCity();
  const replaying = useReplay() !== null;
  useKeypress(PRIORITY.pane, (input, key) => {
    const move = listMove(input, key);
    if (move) return moveWindow(list, move);
    const item = list.selectedRow;
    if (KEYS.alerts.acknowledge.match(input, key)) {
      if (replaying) actions.notice('replaying: alerts are acknowledged now, not in the past (Esc returns to now)');
      else if (!item) actions.notice('no alert selected');
      else if (!item.stored) actions.notice('a live condition clears itself once it is fixed');
      else if (item.stored.acknowledged_at) actions.notice('already acknowledged');
      else acknowledge(item.stored.id);
      return true;
    }
    if (KEYS.alerts.acknowledgeAll.match(input, key)) {
      if (replaying) actions.notice('replaying: alerts are acknowledged now, not in the past (Esc returns to now)');
      else acknowledgeAll();
      return true;
    }
    if (KEYS.alerts.board.match(input, key)) {
      const city = item?.city ?? null;
      if (!item) actions.notice('no alert selected');
      else if (city === null) actions.notice('this alert is about no city');
      else {
        actions.chooseCity(city);
        actions.showPane('board');
      }
      return true;
    }
    if (KEYS.alerts.snooze.match(input, key)) {
      if (!item) actions.notice('no alert selected');
      else snoozeCity(item.stored?.city_id ?? null);
      return true;
    }
    if (KEYS.lists.detail.match(input, key) && item) {
      const lines = alertDetail(item, width, name, zoneOf);
      // a rejected webhook: the delivery as kept, its body escaped
      if (item.stored) lines.push(...rejectedLines(rejectedDeliveries(item.stored), width));
      actions.openOverlay({ kind: 'detail', title: `Alert ${item.marker.trim()}`, lines });
      return true;
    }
    return false;
  });
}
