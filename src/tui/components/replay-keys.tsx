import { useKeypress } from '../hooks/use-keypress.js';
import { KEYS } from '../keys.js';
import { PRIORITY } from '../state/keypress-context.js';
import { useUiActions } from '../state/monitor-context.js';
import { useReplay, useReplayActions } from '../state/replay-context.js';

const K = KEYS.travel;

/**
 * Time travel's keys. `t` is a global key (a pane or a prompt may keep it first). While replaying, the others are
 * heard before the pane's: ← → step, Space plays, + - change the speed. Esc goes back one step (DESIGN 3): a pane's
 * own step back first (Forecasts opened from a board row returns to the board, still replaying), back to now last.
 */
export function ReplayKeys() {
  const replay = useReplay();
  const actions = useReplayActions();
  const ui = useUiActions();
  useKeypress(PRIORITY.global, (input, key) => {
    if (!K.open.match(input, key)) return false;
    ui.openOverlay({ kind: 'travel' });
    return true;
  });
  useKeypress(
    PRIORITY.replay,
    (input, key) => {
      if (K.later.match(input, key)) actions.step(1);
      else if (K.earlier.match(input, key)) actions.step(-1);
      else if (K.play.match(input, key)) actions.play();
      else if (K.faster.match(input, key)) actions.speed(1);
      else if (K.slower.match(input, key)) actions.speed(-1);
      else return false;
      return true;
    },
    replay !== null,
  );
  useKeypress(
    PRIORITY.replayExit,
    (input, key) => {
      if (!K.live.match(input, key)) return false;
      actions.live();
      return true;
    },
    replay !== null,
  );
  return null;
}
