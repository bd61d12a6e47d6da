import { describe, expect, it } from 'vitest';
import { boardDay } from '../../../../src/board/board-day.js';
import { type BoardRow, boardRow, type LadderCell } from '../../../../src/board/board-row.js';
import { marketBuckets } from '../../../../src/domain/buckets.js';
import { cell } from '../../../../src/tui/format/text.js';
import {
  boardColumns,
  boardLine,
  flagsText,
  ladderText,
  shortLabel,
} from '../../../../src/tui/panes/board/board-columns.js';
import { marketDay, NEW_YORK, NO_BOOK } from '../../../board/fixtures.js';

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

describe('the columns a width keeps', () => {
  // New York's day of test/board/fixtures.ts, its ladder set to 6 dead, the held favourite and 4 alive: 13 glyphs
  // (`xxxxxx[*]----`); the flags of a bad day
  const row = (flags: string[]): BoardRow => ({
    ...boardRow(boardDay(NEW_YORK), NO_BOOK),
    ladder: cells('ddddddFaaaa'),
    flags: flags as BoardRow['flags'],
  });
  const shown = (rows: BoardRow[], width: number) => boardColumns(rows, width).map((c) => [c.id, c.width]);
  const three = row(['BREAKTHROUGH', 'DEAD', 'KILL']);

  it('keeps P&L, the forecast and the local time at 120 columns, the flags short', () => {
    // 118 (120 less the cursor's 2), each column one space before it; first at its least width by priority:
    //   city 14 -> 104, best edge 22+1 -> 81, flags `BRK DEAD KILL` 13+1 -> 67, forecast 11 -> 56, P&L 9 -> 47,
    //   ladder 7+1 -> 39, high next 10 -> 29, phase 8 -> 21; the ladder whole (+6 to 13) -> 15, the best edge in
    //   words (+5 to 27) -> 10, local 6 -> 4; the flags' words (`BREAKTHROUGH DEAD KILL` 22: +9) do not fit, nor
    //   staked (8) or spread (7)
    expect(shown([three], 118)).toEqual([
      ['city', 13],
      ['local', 5],
      ['phase', 7],
      ['forecast', 10],
      ['high', 9],
      ['ladder', 13],
      ['edge', 27],
      ['pnl', 8],
      ['flags', 13],
    ]);
    expect(
      boardLine(three, boardColumns([three], 118))
        .map((s) => s.text)
        .join(''),
    ).toMatch(/ BRK DEAD KILL$/);
  });

  it('keeps P&L and the forecast at 80 columns, the flags short; the ladder goes for a third flag', () => {
    // 78: city 14 -> 64, best edge 23 -> 41, flags 14 -> 27, forecast 11 -> 16, P&L 9 -> 7; the ladder (8), high
    // next (10) and phase (8) do not fit; the best edge in words (+5) -> 2; local (6) does not
    expect(shown([three], 78)).toEqual([
      ['city', 13],
      ['forecast', 10],
      ['edge', 27],
      ['pnl', 8],
      ['flags', 13],
    ]);
    // two flags, `BRK KILL` 8: city 14 -> 64, best edge 23 -> 41, flags 9 -> 32, forecast 11 -> 21, P&L 9 -> 12,
    // ladder 8 -> 4; nothing else fits, and the 4 left widen the ladder to 11
    expect(shown([row(['BREAKTHROUGH', 'KILL'])], 78)).toEqual([
      ['city', 13],
      ['forecast', 10],
      ['ladder', 11],
      ['edge', 22],
      ['pnl', 8],
      ['flags', 8],
    ]);
  });

  it('writes the flags in full words where the room allows', () => {
    // two flags at 118: 14 + 23 + 9 + 11 + 9 + 8 + 10 + 8 = 92 -> 26 left; ladder +6 -> 20, best edge +5 -> 15,
    // local 6 -> 9, and the words (`BREAKTHROUGH KILL` 17 against `BRK KILL` 8: +9) -> 0; staked does not fit
    const two = row(['BREAKTHROUGH', 'KILL']);
    const columns = boardColumns([two], 118);
    expect(columns.map((c) => c.id)).toEqual([
      'city',
      'local',
      'phase',
      'forecast',
      'high',
      'ladder',
      'edge',
      'pnl',
      'flags',
    ]);
    expect(
      boardLine(two, columns)
        .map((s) => s.text)
        .join(''),
    ).toMatch(/ BREAKTHROUGH KILL$/);
  });

  it('shortens every flag the board raises, and leaves one it does not know as it is', () => {
    expect(flagsText(['BREAKTHROUGH', 'DEAD', 'KILL', 'CROSS', 'CHECK'], true)).toBe('BRK DEAD KILL CROSS CHECK');
    expect(flagsText(['BREAKTHROUGH', 'DEAD'], false)).toBe('BREAKTHROUGH DEAD');
    expect(flagsText(['SOMETHING'], true)).toBe('SOMETHING');
  });
});
