import { describe, expect, it } from 'vitest';
import { boardDay } from '../../src/board/board-day.js';
import { boardCityOf } from '../../src/board/board-export.js';
import { type BoardRow, boardRow } from '../../src/board/board-row.js';
import type { DayQuote } from '../../src/cache/index.js';
import { boardColumns } from '../../src/tui/panes/board/board-columns.js';
import { AT, marketDay, NO_BOOK, quote } from './fixtures.js';

/**
 * DESIGN 4 "a price against a model of the same instant", issue 44 item 7: while the model is behind the venues, the
 * row shows the last edge it could compare, dimmed with its age, never alerted, exported or recorded.
 *
 * New York (°F, metar_c), N(12.5, 1) °C, METAR high 12 °C read at 16:00Z (priced-day.unit.test.ts: 54-55°F p
 * 0.811427), the desk's run with no fetched_at. Both venues' newest snapshots are of 16:55Z; the monitor holds the
 * METAR and the desk up to 16:50Z: both ahead of the model. Board's clock: AT, 17:00Z.
 */
const KNOWN_UNTIL = Date.parse('2026-11-24T16:50:00Z');
const at = (q: DayQuote, iso: string): DayQuote => ({ ...q, snapshot_at: iso });
const NEWEST = {
  mkta: [quote('52-53°F', 0.01, 0.99), quote('54-55°F', 0.95, 0.06)],
  mktb: [quote('54-55°F', 0.94, 0.07)],
};
// mkta's snapshot of 16:46Z, the newest at or before 16:50Z: 54-55°F YES 0.811427 - 0.70 - 0.01 = +0.101427 (cost
// max(0.01, (0.70 + 0.32 - 1) / 2 = 0.01)); NO 0.188573 - 0.32 - 0.01 < 0; 52-53°F (dead) YES 0.01 no offer, NO 1 -
// 0.97 - max(0.01, -0.005) = +0.02 at 0.97: the best is 54-55°F YES +10.1
const EARLIER = [
  at(quote('52-53°F', 0.02, 0.97), '2026-11-24T16:46:00Z'),
  at(quote('54-55°F', 0.7, 0.32), '2026-11-24T16:46:00Z'),
];

const dayWith = (comparable: { mkta?: DayQuote[]; mktb?: DayQuote[] } | null) =>
  boardDay({
    ...marketDay({ highC: 12, ...NEWEST, modelKnownUntilMs: KNOWN_UNTIL }),
    comparable: comparable && { atMs: AT, ...comparable },
  });

const edgeText = (row: BoardRow, width = 27): string => {
  const column = boardColumns([row], 160).find((c) => c.id === 'edge');
  return column?.text(row, width) ?? '';
};

describe('the last comparable edge while the model is behind (board/priced-day.ts)', () => {
  it('shows the best edge of the newest snapshot the model can be compared with, and its age on the board clock', () => {
    const day = dayWith({ mkta: EARLIER, mktb: [] });
    expect(day.behind).toBe('model');
    // no side is offered on the newest snapshots: the rows the alerts and the board's record read offer nothing
    expect(day.best).toBeNull();
    expect(day.buckets.every((b) => b.yes === null && b.no === null)).toBe(true);
    expect(day.lastComparable?.best).toMatchObject({ venue: 'mkta', side: 'YES', price: 0.7 });
    expect(day.lastComparable?.best.edge).toBeCloseTo(0.101427, 5);
    // 17:00Z - 16:46Z = 14 minutes
    expect(day.lastComparable?.snapshotMs).toBe(Date.parse('2026-11-24T16:46:00Z'));
    expect(day.lastComparable?.ageMs).toBe(14 * 60_000);
    const row = boardRow(day, NO_BOOK);
    expect(edgeText(row)).toBe('+10.1 YES 54-55°F 14m ago');
    // narrow, the edge and its age alone
    expect(edgeText(row, 22)).toBe('+10.1 14m ago');
    // dimmed: the edge column's tone for a row without a best edge
    const column = boardColumns([row], 160).find((c) => c.id === 'edge');
    expect(column?.tone?.(row)).toBe('muted');
  });

  it('is never exported: best_edge stays null and behind says "model"', () => {
    const city = boardCityOf(boardRow(dayWith({ mkta: EARLIER, mktb: [] }), NO_BOOK));
    expect(city.best_edge).toBeNull();
    expect(city.behind).toBe('model');
    expect(Object.keys(city)).not.toContain('last_comparable');
  });

  it('says `model behind` when no comparable snapshot is cached, or the one cached is older than the high', () => {
    expect(edgeText(boardRow(dayWith(null), NO_BOOK))).toBe('model behind');
    expect(edgeText(boardRow(dayWith({ mkta: [], mktb: [] }), NO_BOOK))).toBe('model behind');
    // a snapshot of 15:30Z, before the 16:00Z reading that set the high: stale against what the board knows
    const stale = EARLIER.map((q) => at(q, '2026-11-24T15:30:00Z'));
    const day = dayWith({ mkta: stale, mktb: [] });
    expect(day.lastComparable).toBeNull();
    expect(edgeText(boardRow(day, NO_BOOK))).toBe('model behind');
  });

  it('is not worked out while the venues and the model are of one instant', () => {
    // held up to 17:00Z: the 16:55Z snapshots are compared; 54-55°F has no positive edge at an offer there (YES 0.95,
    // NO 0.188573 - 0.06 - 0.01 = +0.118573 on mkta vs 0.188573 - 0.07 - 0.01 = +0.108573 on mktb: NO mkta is the best)
    const day = boardDay({
      ...marketDay({ highC: 12, ...NEWEST, modelKnownUntilMs: AT }),
      comparable: { atMs: AT, mkta: EARLIER },
    });
    expect(day.behind).toBeNull();
    expect(day.lastComparable).toBeNull();
    expect(day.best).toMatchObject({ venue: 'mkta', side: 'NO', price: 0.06 });
    expect(day.best?.edge).toBeCloseTo(0.118573, 5);
  });
});
