import { describe, expect, it } from 'vitest';
import { bookEquity, pnlOverTime, type RealisedPart, weekStart } from '../../src/domain/book-equity.js';

const part = (at: string, pnl: number, n = 1, city_id = 'nyc'): RealisedPart => ({
  city_id,
  local_date: at.slice(0, 10),
  realisedMs: Date.parse(at),
  pnl,
  n,
});

// 2026-11-30 is a Monday; the clock reads Wednesday 2026-12-02 10:00Z. Given out of order on purpose.
const PARTS = [
  part('2026-12-02T09:30:00Z', 1.25), // an edge trade's exit this morning
  part('2026-11-29T05:00:00Z', 15), // Sunday: the week before
  part('2026-11-30T05:00:00Z', -8, 1, 'london'),
  part('2026-11-29T23:00:00Z', -10, 1, 'paris'), // Sunday 23:00Z: still the week before, whatever Paris's date
  part('2026-11-30T00:00:00Z', 2.5), // Monday 00:00Z exactly: this week
  part('2026-12-02T00:00:00Z', -5),
  part('2026-11-30T05:00:00Z', 30, 2),
];
const NOW = Date.parse('2026-12-02T10:00:00Z');

describe('the book equity curve', () => {
  it('sums each UTC date of realisation and runs a cumulative total, oldest first', () => {
    expect(bookEquity(PARTS)).toEqual([
      { date: '2026-11-29', pnl: 5, n: 2, cumulative: 5 }, // 15 - 10
      { date: '2026-11-30', pnl: 24.5, n: 4, cumulative: 29.5 }, // 2.50 - 8 + 30 = 24.50; 5 + 24.50
      { date: '2026-12-02', pnl: -3.75, n: 2, cumulative: 25.75 }, // -5 + 1.25; 29.50 - 3.75
    ]);
  });

  it('rounds a day to the cent once, after summing', () => {
    // 0.1 + 0.2 is 0.30000000000000004 in floating point
    expect(bookEquity([part('2026-12-01T00:00:00Z', 0.1), part('2026-12-01T01:00:00Z', 0.2)])).toEqual([
      { date: '2026-12-01', pnl: 0.3, n: 2, cumulative: 0.3 },
    ]);
    expect(bookEquity([])).toEqual([]);
  });

  it('gives today, this week (from Monday 00:00Z) and all time', () => {
    expect(pnlOverTime(bookEquity(PARTS), NOW)).toEqual({
      today: { pnl: -3.75, n: 2 }, // 12-02: -5 + 1.25
      week: { pnl: 20.75, n: 6 }, // 11-30 and 12-02: 24.50 - 3.75; Sunday's two left out
      all: { pnl: 25.75, n: 8 }, // 5 + 24.50 - 3.75
    });
    // a minute before Monday: Sunday is today and the week began on 11-23
    const sunday = Date.parse('2026-11-29T23:59:00Z');
    expect(pnlOverTime(bookEquity(PARTS), sunday)).toEqual({
      today: { pnl: 5, n: 2 },
      week: { pnl: 5, n: 2 },
      all: { pnl: 25.75, n: 8 },
    });
  });

  it('starts a week on its Monday', () => {
    expect(weekStart(Date.parse('2026-11-29T23:59:59Z'))).toBe('2026-11-23'); // Sunday
    expect(weekStart(Date.parse('2026-11-30T00:00:00Z'))).toBe('2026-11-30'); // Monday
    expect(weekStart(NOW)).toBe('2026-11-30'); // Wednesday
  });
});
