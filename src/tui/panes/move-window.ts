import type { KeysetWindow } from '../hooks/use-keyset-window.js';
import type { ListMove } from '../keys.js';

/** Applies a movement key to a keyset window; always consumes the key. */
export function moveWindow<Row>(list: KeysetWindow<Row>, move: ListMove): true {
  if (move === 'down') list.move(1);
  else if (move === 'up') list.move(-1);
  else if (move === 'pageDown') list.page(1);
  else if (move === 'pageUp') list.page(-1);
  else list.home();
  return true;
}
