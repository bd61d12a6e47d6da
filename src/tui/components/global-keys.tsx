import { useApp } from 'ink';
import { useKeypress } from '../hooks/use-keypress.js';
import { PANES } from '../hooks/use-monitor-state.js';
import { PRIORITY } from '../state/keypress-context.js';
import { useDeps, useUiActions } from '../state/monitor-context.js';

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
    if (key.tab) {
      actions.cyclePane(key.shift ? -1 : 1);
      return true;
    }
    const digit = Number(input);
    if (input.length === 1 && digit >= 1 && digit <= PANES.length) {
      actions.showPane(PANES[digit - 1] as (typeof PANES)[number]);
      return true;
    }
    switch (input) {
      case 'q':
        exit();
        return true;
      case '?':
        actions.openOverlay({ kind: 'help' });
        return true;
      case 'c':
        actions.openOverlay({ kind: 'city' });
        return true;
      case 'u':
        actions.toggleUnit();
        return true;
      case 'r':
        if (onRefresh) {
          onRefresh();
          actions.notice('refresh requested');
        } else actions.notice('nothing to refresh from (offline)');
        return true;
      default:
        return false;
    }
  });
  return null;
}
