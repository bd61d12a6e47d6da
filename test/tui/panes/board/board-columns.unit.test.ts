import { describe, expect, it } from 'vitest';
import { boardDay } from '../../../../src/board/board-day.js';
import { type BoardRow, boardRow, type LadderCell } from '../../../../src/board/board-row.js';
import { marketBuckets } from '../../../../src/domain/buckets.js';
import { cell } from '../../../../src/tui/format/text.js';
import { boardColumns, ladderText, shortLabel } from '../../../../src/tui/panes/board/board-columns.js';
import { marketDay, NO_BOOK } from '../../../board/fixtures.js';

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

describe('the local time', () => {
  // New York is UTC-5 in November; the fixtures' market day is 2026-11-24
  const rowAt = (iso: string) => boardRow(boardDay({ ...marketDay(), atMs: Date.parse(iso) }), NO_BOOK);
  const localCell = (rows: BoardRow[]) => {
    const columns = boardColumns(rows, 160);
    const local = columns.find((c) => c.id === 'local');
    return rows.map((r) => cell(local?.text(r, local.width) ?? '', local?.width ?? 0, local?.align));
  };

  it('says the evening before the market day and the hours after its midnight', () => {
    // 00:30Z on the 24th is 19:30 on the 23rd in New York: the day has not begun, its phase is early
    const before = rowAt('2026-11-24T00:30:00Z');
    expect([before.dayOffset, before.localTime, before.phase]).toEqual([-1, '19:30', 'early']);
    // 05:04Z on the 25th is 00:04 on the 25th: past the day's midnight
    const after = rowAt('2026-11-25T05:04:00Z');
    expect([after.dayOffset, after.localTime]).toEqual([1, '00:04']);
    // the column widens for them and keeps the times under one another
    expect(localCell([before, after, rowAt('2026-11-24T17:00:00Z')])).toEqual(['-1d 19:30', '+1d 00:04', '    12:00']);
  });

  it('stays five wide while every row is on its day', () => {
    expect(localCell([rowAt('2026-11-24T17:00:00Z'), rowAt('2026-11-25T04:59:00Z')])).toEqual(['12:00', '23:59']);
  });
});
