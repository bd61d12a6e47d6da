import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readBoard } from '../../src/board/read-board.js';
import { type Cache, openCache } from '../../src/cache/index.js';
import { at, DAY, fillAsOfDay, NYC } from '../cache/as-of-day.js';

/**
 * The board as of an instant (DESIGN 4) on the hand-built New York day of test/cache/as-of-day.ts (its comment gives
 * every row and its time): one code for the live board and for any instant of the cache.
 */
let cache: Cache;
beforeEach(() => {
  cache = openCache(':memory:');
  fillAsOfDay(cache);
});
afterEach(() => cache.close());

const row = (atMs: number, date?: string) => readBoard(cache, [NYC], atMs, {}, new Map(), { date, asOf: atMs })[0];

describe('the board as of an instant', () => {
  it('moves through the day: local time, running high, prices, phase, positions and the kill', () => {
    // 16:00Z = 11:00 local: METAR 5, 9 °C so far; the 16:00Z snapshot; the 15:05Z desk run (12.5, 0.8); before the
    // lock, from 10:00 local: peak; the no24 record (05:01Z), svc-max-picks (16:00Z), the pick (14:00Z) and the edge
    // trade (15:00Z to 18:00Z) open
    const eleven = row(at('16:00'));
    expect([eleven?.date, eleven?.localTime, eleven?.phase, eleven?.runningHighC]).toEqual([DAY, '11:00', 'peak', 9]);
    expect(eleven?.forecast).toEqual({ muC: 12.5, sigmaC: 0.8 });
    expect(eleven?.buckets.map((b) => b.mkta?.yes_price)).toEqual([0.35, 0.45]);
    expect(eleven?.positions).toBe(4);
    expect(row(at('18:00'))?.positions).toBe(3);
    expect(eleven?.flags).toEqual([]);
    // 19:00:05Z: the kill was received; 19:00Z's 13 °C is the high (the poll's 12.4 °C at 18:30Z is below it). A
    // whole 13 °C allows 12.5 °C = 54.5 °F, not above the warmest model's 55 °F (published 13:05Z): no BREAKTHROUGH
    const kill = row(Date.parse(`${DAY}T19:00:05Z`));
    expect([kill?.localTime, kill?.runningHighC, kill?.flags]).toEqual(['14:00', 13, ['KILL']]);
    // 17:00Z's 12 °C settles at 54 °F (53.6 rounded): the pick's leg A on 52-53°F is dead while the pick is open
    expect(row(at('16:59'))?.flags).toEqual([]);
    expect(row(at('17:00'))?.flags).toEqual(['DEAD']);
    // 21:00Z = 16:00 local: the lock (peak hour 15) is made, its peak over at 17:00 local; the kill acknowledged
    const four = row(at('21:00'));
    expect([four?.phase, four?.flags]).toEqual(['peak', []]);
    expect(row(at('22:00'))?.phase).toBe('passed');
  });

  it('live (no instant for the book): the positions and kills as they stand, whatever the board’s clock says', () => {
    // at 18:59Z the two records and the pick were open (leg A of the pick dead); read as they stand, the records are
    // settled, the pick killed (its kill acknowledged): nothing of the day is open, no flag
    expect([row(at('18:59'))?.positions, row(at('18:59'))?.flags]).toEqual([3, ['DEAD']]);
    const live = readBoard(cache, [NYC], at('18:59'), {}, new Map())[0];
    expect([live?.positions, live?.flags]).toEqual([0, []]);
  });

  it('a chosen day after its midnight: passed until its lock resolved, then settled', () => {
    // 04:59Z the next day is 23:59 local on the day itself
    expect(row(at('04:59', '2026-11-25'), DAY)?.phase).toBe('passed');
    const after = row(at('05:00', '2026-11-25'), DAY);
    expect([after?.date, after?.localTime, after?.phase, after?.runningHighC]).toEqual([DAY, '00:00', 'settled', 13]);
    // the next day's own board at that instant: its early hours, nothing of it cached but the yescore record
    const next = row(at('05:00', '2026-11-25'));
    expect([next?.date, next?.phase, next?.runningHighC]).toEqual(['2026-11-25', 'early', null]);
  });
});
