import { describe, expect, it } from 'vitest';
import type { LadderCell } from '../../../../src/board/board-row.js';
import { marketBuckets } from '../../../../src/domain/buckets.js';
import { ladderText, shortLabel } from '../../../../src/tui/panes/board/board-columns.js';

const cells = (spec: string): LadderCell[] =>
  // d dead, a alive, f favourite; upper case: held
  [...spec].map((ch) => ({
    label: ch,
    state: ch.toLowerCase() === 'd' ? 'dead' : ch.toLowerCase() === 'f' ? 'favourite' : 'alive',
    held: ch !== ch.toLowerCase(),
  }));

describe('the ladder', () => {
  it('writes a glyph a bucket, lowest first: x dead, - alive, * the favourite, [ ] around a held one', () => {
    expect(ladderText(cells('dDaFA'), 20)).toBe('x[x]-[*][-]');
    expect(ladderText(cells('ddaafaaa'), 8)).toBe('xx--*---');
  });

  it('keeps the favourite and its neighbours when it is too wide, and says where buckets were cut', () => {
    // 11 buckets in 7: the favourite (6th) with two each side, plus ‹ and ›
    expect(ladderText(cells('dddddfaaaaa'), 7)).toBe('‹xx*--›');
    // 6 dead, the held favourite, 4 alive (13 glyphs) in 12: ‹ and 11 glyphs from the 3rd bucket on, nothing cut right
    expect(ladderText(cells('ddddddFaaaa'), 12)).toBe('‹xxxx[*]----');
    // the favourite at the top end: only the left is cut
    expect(ladderText(cells('aaaaaaaaaaf'), 5)).toBe('‹---*');
  });

  it('writes the tails as ≤ / ≥ and other buckets by their label', () => {
    const [low, second, , , , , , , , , high] = marketBuckets('F', 70);
    expect([low, second, high].map((b) => shortLabel(b as NonNullable<typeof b>))).toEqual([
      '≤61°F',
      '62-63°F',
      '≥80°F',
    ]);
  });
});
