import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mergeSorted } from '../../../src/cache/feed/merge.js';

/** An entry of a list: `at` orders it, `tag` says which list and place it came from (so a tie's order shows). */
interface Entry {
  at: number;
  tag: string;
}
const byAt = (a: Entry, b: Entry) => a.at - b.at;

describe('merging sorted lists up to a limit', () => {
  it('gives literally the first entries, a tie to the earlier list', () => {
    const lists = [
      [
        { at: 1, tag: 'a1' },
        { at: 3, tag: 'a3' },
        { at: 3, tag: 'a3b' },
      ],
      [],
      [
        { at: 1, tag: 'c1' },
        { at: 2, tag: 'c2' },
        { at: 3, tag: 'c3' },
      ],
    ];
    const tags = (limit: number) => mergeSorted(lists, limit, byAt).map((e) => e.tag);
    expect(tags(4)).toEqual(['a1', 'c1', 'c2', 'a3']);
    expect(tags(10)).toEqual(['a1', 'c1', 'c2', 'a3', 'a3b', 'c3']);
    expect(tags(0)).toEqual([]);
  });

  it('gives what a stable sort of the lists one after the other gives, cut at the limit', () => {
    // few distinct instants, so ties within and across lists are common
    const list = fc.array(fc.integer({ min: 0, max: 5 }), { maxLength: 12 });
    fc.assert(
      fc.property(fc.array(list, { maxLength: 6 }), fc.integer({ min: 0, max: 80 }), (ats, limit) => {
        const lists = ats.map((l, i) => l.map((at, j) => ({ at, tag: `${i}.${j}` })).sort(byAt));
        // Array.prototype.sort is stable (ES2019): the order the merge must keep
        const sorted = lists.flat().sort(byAt).slice(0, limit);
        expect(mergeSorted(lists, limit, byAt)).toEqual(sorted);
      }),
    );
  });
});
