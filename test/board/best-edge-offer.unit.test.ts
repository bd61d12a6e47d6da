import { describe, expect, it } from 'vitest';
import { boardDay } from '../../src/board/board-day.js';
import { boardCityOf } from '../../src/board/board-export.js';
import { type BoardRow, boardRow } from '../../src/board/board-row.js';
import { boardColumns } from '../../src/tui/panes/board/board-columns.js';
import { marketDay, NO_BOOK, primary, quote } from './fixtures.js';

/**
 * DESIGN 4 "a flag means what it says", the best edge: the largest effective edge over both venues and sides that is
 * positive and at an offer (a price strictly between 0.01 and 0.99); none: `no edge`, `best_edge: null`.
 *
 * New York (°F, metar_c), N(12.5, 1) °C, METAR high 12 °C (priced-day.unit.test.ts works the p out):
 *   51°F or below and 52-53°F dead (p 0), 54-55°F 0.811427, 56-57°F 0.161533, 58°F or higher 0.027040.
 * Cost max(0.01, (yes + no - 1) / 2) is 0.01 on every quote below (their overround is at most 0.02).
 */
const FILLER = [
  // dead: YES 0 - 0.001 - 0.01 = -0.011; NO 1 - 0.999 - 0.01 = -0.009 (the issue's `NO ≤63°F 1.00`)
  quote('51°F or below', 0.001, 0.999),
  quote('52-53°F', 0.001, 0.999),
  // YES 0.811427 - 0.83 - 0.01 = -0.028573; NO 0.188573 - 0.19 - 0.01 = -0.011427
  quote('54-55°F', 0.83, 0.19),
  // YES 0.161533 - 0.17 - 0.01 = -0.018467; NO 0.838467 - 0.84 - 0.01 = -0.011533
  quote('56-57°F', 0.17, 0.84),
  // YES 0.027040 - 0.01 - 0.01 = +0.007040, but at the floor 0.01: no offer; NO 0.97296 - 0.99 - 0.01 = -0.02704
  quote('58°F or higher', 0.01, 0.99),
];

const edgeText = (row: BoardRow): string => {
  const column = boardColumns([row], 160).find((c) => c.id === 'edge');
  return column?.text(row, column.width) ?? '';
};

describe('the best edge is positive and at an offer (board/priced-day.ts)', () => {
  it('says `no edge` when the only positive edge is at the floor and the rest are negative', () => {
    const day = boardDay(marketDay({ highC: 12, mkta: FILLER }));
    // the buckets keep each side's larger edge for Forecasts' table, the floor's +0.007040 among them
    expect(day.buckets[4]?.best).toMatchObject({ venue: 'mkta', side: 'YES', price: 0.01 });
    expect(day.buckets[4]?.best?.edge).toBeCloseTo(0.00704, 6);
    expect(day.best).toBeNull();
    const row = boardRow(day, NO_BOOK);
    expect(edgeText(row)).toBe('no edge');
    expect(boardCityOf(row).best_edge).toBeNull();
    expect(boardCityOf(row).behind).toBeNull();
  });

  it('takes a side on the venue that offers it when its better venue quotes the floor', () => {
    // mktb quotes 58°F or higher at 0.015 / 0.985: YES 0.027040 - 0.015 - 0.01 = +0.002040, an offer; mkta's +0.007040
    // at 0.01 stays the bucket's larger YES, not the day's best
    const day = boardDay(marketDay({ highC: 12, mkta: FILLER, mktb: [quote('58°F or higher', 0.015, 0.985)] }));
    expect(day.buckets[4]?.yes).toMatchObject({ venue: 'mkta', price: 0.01 });
    expect(day.best).toMatchObject({ venue: 'mktb', side: 'YES', price: 0.015 });
    expect(day.best?.bucket.label).toBe('58°F or higher');
    expect(day.best?.edge).toBeCloseTo(0.00204, 6);
    // +0.20 points, the tail written ≥58°F
    expect(edgeText(boardRow(day, NO_BOOK))).toBe('+0.2 YES ≥58°F 0.01 mktb');
  });

  it('never takes a NO at the ceiling: 0.99 is no offer, 0.98 is', () => {
    // 56-57°F at 0.005 / 0.99 on mkta: NO 0.838467 - 0.99 - 0.01 = -0.161533 anyway; with p 0 (a dead 52-53°F) at
    // 0.001 / 0.98: NO 1 - 0.98 - max(0.01, -0.0095) = +0.01, an offer: the day's best
    const day = boardDay(marketDay({ highC: 12, mkta: [quote('52-53°F', 0.001, 0.98), quote('54-55°F', 0.83, 0.19)] }));
    expect(day.best).toMatchObject({ venue: 'mkta', side: 'NO', price: 0.98 });
    expect(day.best?.edge).toBeCloseTo(0.01, 10);
    // the same NO at 0.99: 1 - 0.99 - max(0.01, -0.0045) = 0, neither positive nor an offer
    const ceiling = boardDay(
      marketDay({ highC: 12, mkta: [quote('52-53°F', 0.001, 0.99), quote('54-55°F', 0.83, 0.19)] }),
    );
    expect(ceiling.best).toBeNull();
  });

  it('keeps `—` where there is nothing to price: no forecast, or no price', () => {
    const noForecast = boardRow(
      boardDay(marketDay({ highC: 12, forecast: primary(undefined, 1), mkta: FILLER })),
      NO_BOOK,
    );
    expect(edgeText(noForecast)).toBe('—');
    // no venue's snapshot: the buckets are laid out around the forecast, nothing is quoted
    expect(edgeText(boardRow(boardDay(marketDay({ highC: 12 })), NO_BOOK))).toBe('—');
  });
});
