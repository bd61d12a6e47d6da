import { describe, expect, it } from 'vitest';
import { positionAt } from '../../../../src/tui/panes/positions/position-cursor.js';
import type { PositionLine } from '../../../../src/tui/panes/positions/position-lines.js';

const header: PositionLine = { line: [], detail: null };
const position = (title: string): PositionLine => ({ line: [], detail: { title, json: {} } });
// 0 FUSION LOCKS heading, 1 lock, 2 blank, 3 INSURANCE PICKS heading, 4 column titles, 5 pick, 6 leg
const book = [header, position('lock'), header, header, header, position('pick'), position('leg')];

describe('the Positions cursor', () => {
  it('rests on lines Enter opens, passing over headers the way it moves, and on the lines after the last', () => {
    expect(positionAt(book, 0, 1)).toBe(1);
    // down from the lock: over the blank line, the heading and the column titles, to the pick
    expect(positionAt(book, 2, 1)).toBe(5);
    // up from the pick: back over them to the lock
    expect(positionAt(book, 4, -1)).toBe(1);
    // past the last position (the totals) there is none further down: the line itself, so the totals can be read
    expect(positionAt([...book, header], 7, 1)).toBe(7);
    expect(positionAt(book, 6, 1)).toBe(6);
    // up from the lock, nothing above it opens: the heading, the top of the pane
    expect(positionAt(book, 0, -1)).toBe(0);
  });

  it('a book with nothing to open keeps the line, so the keys still scroll it', () => {
    expect(positionAt([header, header, header], 1, 1)).toBe(1);
  });
});
