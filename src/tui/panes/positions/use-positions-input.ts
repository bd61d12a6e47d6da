import { jsonLines } from '../../format/json-lines.js';
import { useKeypress } from '../../hooks/use-keypress.js';
import type { Overlay } from '../../hooks/use-monitor-state.js';
import { scrollStep } from '../../hooks/use-scroll-state.js';
import { KEYS, listMove } from '../../keys.js';
import { PRIORITY } from '../../state/keypress-context.js';
import { useUiActions } from '../../state/monitor-context.js';
import { positionAt } from './position-cursor.js';
import type { PositionDetail } from './position-lines.js';
import type { PositionsState } from './use-positions-state.js';

/**
 * A position's detail: its labelled fields (position-fields.ts), or the record as stored; the positions' raw key
 * turns one into the other, Esc closes either.
 */
function detailOverlay(detail: PositionDetail, open: (o: Overlay) => void, labelled: boolean): Overlay {
  const other = () => open(detailOverlay(detail, open, !labelled));
  return labelled && detail.fields
    ? {
        kind: 'detail',
        title: detail.title,
        lines: detail.fields(),
        action: { binding: KEYS.positions.raw, run: other },
      }
    : {
        kind: 'detail',
        title: `${detail.title} · as stored`,
        lines: jsonLines(detail.json),
        // the same key back to the fields, named for what it shows there
        action: detail.fields ? { binding: { ...KEYS.positions.raw, hint: 'fields' }, run: other } : undefined,
      };
}

/** The list keys move the cursor from position to position (headers passed over); Enter shows it as labelled fields, the raw key as stored. */
export function usePositionsInput({ lines, cursor, scrolledTo, bodyHeight, scroll }: PositionsState): void {
  const actions = useUiActions();
  useKeypress(PRIORITY.pane, (input, key) => {
    const move = listMove(input, key);
    if (move) {
      const by = scrollStep(move, bodyHeight);
      if (by === null) scroll.home();
      else {
        // a line at a time passes over headers: the next position that way, from the one the cursor is on
        const dir = by < 0 ? -1 : 1;
        const target = Math.max(0, Math.min(lines.length - 1, cursor + by));
        const landed = positionAt(lines, target, dir);
        // up with nothing above that opens (the headers over the first position): it stays where it is
        const next = dir < 0 && lines[landed]?.detail == null ? cursor : landed;
        scroll.move(next - scrolledTo, lines.length, bodyHeight);
      }
    } else if (KEYS.lists.detail.match(input, key)) {
      const detail = lines[cursor]?.detail;
      if (!detail) return false;
      actions.openOverlay(detailOverlay(detail, actions.openOverlay, detail.fields !== undefined));
    } else return false;
    return true;
  });
}
