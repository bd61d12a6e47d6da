import { describe, expect, it } from 'vitest';
import { boardDay, localClockOf } from '../../src/board/board-day.js';
import { boardRow } from '../../src/board/board-row.js';
import { AT, HELD, marketDay, PARIS, primary, quote, range } from './fixtures.js';

const QUOTES = [
  quote('51°F or below', 0.01, 0.99),
  quote('52-53°F', 0.02, 0.97),
  quote('54-55°F', 0.7, 0.32),
  quote('56-57°F', 0.1, 0.91),
  quote('58°F or higher', 0.01, 0.99),
];

describe('a row of the board (board/board-row.ts)', () => {
  it('reads the clock, the phase, the forecast and the running high in the market unit', () => {
    // 17:00Z is 12:00 in New York (UTC-5 in November): peak from 10:00, no lock yet
    const day = boardDay(marketDay({ highC: 12, range: range(55, 12.78, 3.6), mkta: QUOTES }));
    expect([day.localTime, day.localMinutes, day.phase]).toEqual(['12:00', 720, 'peak']);
    // shown from the °F aliases: 12.5 °C = 54.5 °F, sigma 1 °C = 1.8 °F; spread 3.6 °F
    expect(day.shown).toEqual({ mu: 54.5, sigma: 1.8 });
    expect(day.spread).toBe(3.6);
    // 12 °C = 53.6 °F, under the warmest model's 55 °F
    expect(day.runningHigh).toBeCloseTo(53.6, 10);
    expect(day.breakthrough).toBe(false);
    // Paris at 18:00 (UTC+1)
    expect(localClockOf(AT, PARIS.tz)).toEqual({
      text: '18:00',
      minutes: 1080,
      dateMs: Date.parse('2026-11-24T00:00:00Z'),
    });
  });

  it('draws the ladder, marks the book at mkta and flags a dead held YES', () => {
    // N(12.5, 1) °C, running high 12 °C: 51- and 52-53 dead, 54-55 the favourite (0.811427), 56-57 and 58+ alive
    const row = boardRow(boardDay(marketDay({ highC: 12, range: range(55, 12.78), mkta: QUOTES })), HELD);
    expect(row.ladder.map((c) => [c.state, c.held])).toEqual([
      ['dead', false],
      ['dead', true],
      ['favourite', true],
      ['alive', false],
      ['alive', false],
    ]);
    // YES 52-53: 10 x 0.02 - 3 = -2.80; lock 54-55: 40 x 0.70 - 40 x 0.25 = 28 - 10 = +18.00; staked 3 + 10
    expect([row.positions, row.exposure, row.pnl]).toEqual([2, 13, 15.2]);
    // the YES on 52-53°F (11 °C) died at 12 °C
    expect(row.flags).toEqual(['DEAD']);
  });

  it('says BREAKTHROUGH above every model and KILL for an unacknowledged kill', () => {
    // 13 °C reported whole: at least 12.5 °C = 54.5 °F, above the warmest model's 54.4 °F
    const day = boardDay(marketDay({ highC: 13, range: range(54.4, 12.44), mkta: QUOTES }));
    expect(boardRow(day, { ...HELD, killed: true }).flags).toEqual(['BREAKTHROUGH', 'DEAD', 'KILL']);
  });

  it('CHECK takes the place of the flags a running high far outside the forecast would raise; KILL stays', () => {
    // N(12.5, 1) °C and 24 °C: far outside (priced-day.unit.test.ts); the dead YES and the breakthrough it would
    // raise are not flagged, the kill (from the service) is
    const day = boardDay(marketDay({ highC: 24, range: range(55, 12.78), mkta: QUOTES }));
    expect(boardRow(day, { ...HELD, killed: true }).flags).toEqual(['CHECK', 'KILL']);
    expect(day.best).toBeNull();
    // the same reading with a forecast that reaches it (N(23, 1)) is a real day: its flags are raised
    const real = boardDay(marketDay({ highC: 24, forecast: primary(23, 1), range: range(55, 12.78), mkta: QUOTES }));
    expect(boardRow(real, HELD).flags).toEqual(['BREAKTHROUGH', 'DEAD']);
  });
});
