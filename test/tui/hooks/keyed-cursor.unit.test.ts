import { describe, expect, it } from 'vitest';
import { placeCursor } from '../../../src/tui/hooks/use-keyed-cursor.js';

describe('a cursor that keeps its row through a re-order', () => {
  it('follows its key to the row it moved to, and scrolls to keep it shown', () => {
    // on 'rome', the 4th of 6 rows, 3 shown from the 2nd: the list re-orders and rome is now the last
    const state = { key: 'rome', cursor: 3, offset: 1 };
    expect(placeCursor(state, ['nyc', 'paris', 'sea', 'lon', 'tok', 'rome'], 3)).toEqual({
      cursor: 5,
      offset: 3,
      key: 'rome',
    });
    // and now the first: the window comes up to it
    expect(placeCursor(state, ['rome', 'nyc', 'paris', 'sea', 'lon', 'tok'], 3)).toEqual({
      cursor: 0,
      offset: 0,
      key: 'rome',
    });
  });

  it('a row that left the list hands the cursor to the row now where it was', () => {
    const state = { key: 'rome', cursor: 3, offset: 1 };
    expect(placeCursor(state, ['nyc', 'paris', 'sea', 'lon', 'tok'], 3)).toEqual({ cursor: 3, offset: 1, key: 'lon' });
    // past the end of a shorter list: the last row
    expect(placeCursor(state, ['nyc', 'paris'], 3)).toEqual({ cursor: 1, offset: 0, key: 'paris' });
    expect(placeCursor(state, [], 3)).toEqual({ cursor: 0, offset: 0, key: 'rome' });
  });
});
