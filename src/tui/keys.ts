import type { Key } from 'ink';

export type ListMove = 'down' | 'up' | 'pageDown' | 'pageUp' | 'home';

/** The movement keys every list and document shares: arrows and j/k, PgUp/PgDn (and space), Home and g. */
export function listMove(input: string, key: Key): ListMove | null {
  if (key.downArrow || input === 'j') return 'down';
  if (key.upArrow || input === 'k') return 'up';
  if (key.pageDown || input === ' ') return 'pageDown';
  if (key.pageUp) return 'pageUp';
  if (key.home || input === 'g') return 'home';
  return null;
}
