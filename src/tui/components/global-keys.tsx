import { useApp } from 'ink';
import { useKeypress } from '../hooks/use-keypress.js';
import { KEYS } from '../keys.js';
import { paneOfKey } from '../panes/pane-registry.js';
import { PRIORITY } from '../state/keypress-context.js';
import { useDeps, useUiActions } from '../state/monitor-context.js';

const K = KEYS.everywhere;

/** The keys that work on every pane; panes and overlays hear keys first and may keep them. */
export function GlobalKeys() {
  const { exit } = useApp();
  const { onRefresh } = useDeps();
  const actions = useUiActions();

  // sees every key first and keeps none: a notice lasts until the next key
  useKeypress(Number.MAX_SAFE_INTEGER, () => {
    actions.notice(null);
    return false;
  });

  useKeypress(PRIORITY.global, (input, key) => {
    const pane = paneOfKey(input);
    if (K.nextPane.match(input, key)) actions.cyclePane(1);
    else if (K.previousPane.match(input, key)) actions.cyclePane(-1);
    else if (pane) actions.showPane(pane);
    else if (K.quit.match(input, key)) exit();
    else if (K.help.match(input, key)) actions.openOverlay({ kind: 'help' });
    else if (K.city.match(input, key)) actions.openOverlay({ kind: 'city' });
    else if (K.unit.match(input, key)) actions.toggleUnit();
    else if (K.refresh.match(input, key)) {
      if (onRefresh) {
        onRefresh();
        actions.notice('refresh requested');
      } else actions.notice('nothing to refresh from (offline)');
    } else return false;
    return true;
  });
  return null;
}
