import { describe, expect, it } from 'vitest';
import { DERIVED_INSTANT_SOURCES } from '../../../src/cache/feed/derived-instant-sources.js';
import { STORED_INSTANT_SOURCES } from '../../../src/cache/feed/stored-instant-sources.js';

describe("the Signals feed's ranks", () => {
  it('gives every source a rank of its own, so a tie on instant and rank is within one source', () => {
    // a tie on instant and rank is broken by key: two sources sharing a rank would compare a delivery's seq (a
    // number) with a lock's id (a text), which compare neither way, and paging would skip or repeat signals
    const ranks = [...STORED_INSTANT_SOURCES, ...DERIVED_INSTANT_SOURCES].map((s) => s.rank);
    expect(ranks).toHaveLength(10);
    expect(new Set(ranks).size, `ranks ${ranks.join(', ')}`).toBe(ranks.length);
  });

  it('orders the kinds at one instant: closing before opening, a test before the settlements, the records last', () => {
    // stored: kill 0, picks and addons 1, edge exit 2, edge entry 3, test 4, lock 6
    expect(STORED_INSTANT_SOURCES.map((s) => s.rank)).toEqual([0, 1, 2, 3, 4, 6]);
    // derived: settlement 5, svc-max 7, yescore 8, no24 9
    expect(DERIVED_INSTANT_SOURCES.map((s) => s.rank)).toEqual([5, 7, 8, 9]);
  });
});
