import { describe, expect, it } from 'vitest';
import { boardDay } from '../../src/board/board-day.js';
import { type BoardRow, boardRow } from '../../src/board/board-row.js';
import type { FusionLock } from '../../src/contract/fusion-locks.js';
import { ladderText } from '../../src/tui/panes/board/board-columns.js';
import { AT, marketDay, NO_BOOK, PARIS, primary, quote } from './fixtures.js';

/**
 * DESIGN 4 "a flag means what it says", the ladder: a bucket alive by the rule but under 2% once the day's peak phase
 * began is drawn `·` (practically dead), between `-` alive and `x` dead.
 *
 * Paris (°C), no METAR reading yet (no condition), buckets 12°C or below / 13°C / 14°C / 15°C or higher. Normal table:
 * Φ(0.03) = 0.51197, Φ(0.07) = 0.52790, Φ(1.03) = 0.84849, Φ(1.07) = 0.85769, Φ(2.03) = 0.97882, Φ(2.07) = 0.98077.
 *   N(12.43, 1): 15°C or higher is P(X >= 14.5) = 1 - Φ(2.07) = 0.01923 (1.9%); 12°C or below Φ(0.07) = 0.52790 the
 *     favourite; 13°C Φ(1.07) - Φ(0.07) = 0.32979; 14°C Φ(2.07) - Φ(1.07) = 0.12308
 *   N(12.47, 1): 15°C or higher 1 - Φ(2.03) = 0.02118 (2.1%); 12°C or below Φ(0.03) = 0.51197 the favourite
 * AT is 17:00Z, 18:00 in Paris: with no lock yet, `peak`; 07:00Z is 08:00, `early`.
 */
const QUOTES = [
  quote('12°C or below', 0.5, 0.5),
  quote('13°C', 0.3, 0.7),
  quote('14°C', 0.12, 0.88),
  quote('15°C or higher', 0.02, 0.98),
];

const rowOf = (muC: number, atMs = AT, lock: FusionLock | null = null): BoardRow =>
  boardRow(
    boardDay({ ...marketDay({ city: PARIS, forecast: primary(muC, 1), highC: null, mkta: QUOTES }), atMs, lock }),
    NO_BOOK,
  );

describe('the ladder: practically dead after the peak began (board/board-row.ts)', () => {
  it('draws a bucket at 1.9% after the peak began `·`, one at 2.1% `-`', () => {
    const faint = rowOf(12.43);
    expect(faint.phase).toBe('peak');
    expect(faint.buckets[3]?.p).toBeCloseTo(0.01923, 4);
    expect(faint.ladder.map((c) => c.state)).toEqual(['favourite', 'alive', 'alive', 'faint']);
    expect(ladderText(faint.ladder, 20)).toBe('*--·');
    const alive = rowOf(12.47);
    expect(alive.buckets[3]?.p).toBeCloseTo(0.02118, 4);
    expect(ladderText(alive.ladder, 20)).toBe('*---');
  });

  it('draws it `·` when the peak has passed too (the lock peaked at 15:00, 18:00 is past 17:00)', () => {
    const lock = { peak_hour: 15, resolved: false } as FusionLock;
    const passed = rowOf(12.43, AT, lock);
    expect(passed.phase).toBe('passed');
    expect(ladderText(passed.ladder, 20)).toBe('*--·');
  });

  it('keeps it `-` at 1.9% before the peak: the afternoon can still bring it', () => {
    const early = rowOf(12.43, Date.parse('2026-11-24T07:00:00Z'));
    expect([early.localTime, early.phase]).toEqual(['08:00', 'early']);
    expect(ladderText(early.ladder, 20)).toBe('*---');
  });

  it('brackets a held practically dead bucket like any other', () => {
    expect(ladderText([{ label: '15°C or higher', state: 'faint', held: true }], 20)).toBe('[·]');
  });
});
