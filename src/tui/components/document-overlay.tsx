import { useKeypress } from '../hooks/use-keypress.js';
import { scrollStep, useScrollState } from '../hooks/use-scroll-state.js';
import { hintOf, KEYS, type KeyBinding, listMove } from '../keys.js';
import { PRIORITY } from '../state/keypress-context.js';
import { useUiActions } from '../state/monitor-context.js';
import { type Line, line, seg } from '../theme.js';
import { LineView } from './line-view.js';

/**
 * A modal page of text (help, a row's detail): scrolls with the list keys, closes with Esc (or `closeKey`), and
 * swallows every other key so nothing beneath it reacts; only `q` passes, to quit. `action`'s key does its thing.
 */
export function DocumentOverlay({
  title,
  lines,
  width,
  height,
  closeKey,
  action,
}: {
  title: string;
  lines: readonly Line[];
  width: number;
  height: number;
  closeKey?: KeyBinding;
  /** A key that does something with what is shown (a past day's History row: replay it), named in the header. */
  action?: { binding: KeyBinding; run(): void };
}) {
  const actions = useUiActions();
  const [scroll, scrollActions] = useScrollState();
  const bodyHeight = Math.max(1, height - 1);
  // no cursor here: the scroll position is the first line shown
  const maxOffset = Math.max(0, lines.length - bodyHeight);
  const offset = Math.min(scroll.cursor, maxOffset);

  useKeypress(PRIORITY.overlay, (input, key) => {
    if (KEYS.lists.back.match(input, key) || closeKey?.match(input, key)) {
      actions.closeOverlay();
      return true;
    }
    if (action?.binding.match(input, key)) {
      action.run();
      return true;
    }
    if (KEYS.everywhere.quit.match(input, key) && !key.ctrl) return false;
    const move = listMove(input, key);
    const by = move ? scrollStep(move, bodyHeight) : 0;
    if (by === null) scrollActions.home();
    else if (by !== 0) scrollActions.move(by, maxOffset + 1, 1);
    return true;
  });

  const more =
    lines.length > bodyHeight
      ? `  ${offset + 1}-${Math.min(lines.length, offset + bodyHeight)} of ${lines.length}`
      : '';
  const keys = [...(action ? [hintOf(action.binding)] : []), hintOf(KEYS.lists.back)].join(' · ');
  const header = line(seg(title, 'accent', true), seg(`${more}  ${keys}`, 'muted'));
  return <LineView lines={[header, ...lines.slice(offset, offset + bodyHeight)]} width={width} height={height} />;
}
