import { describe, expect, it } from 'vitest';
import type { CityAsset } from '../../src/contract/assets.js';
import { HalfHourPairs } from '../../src/server/world/half-hour-pairs.js';

const station = (city_id: string) => ({ city_id }) as CityAsset;
const NYC = station('nyc');
const LONDON = station('london');

describe("the world's pairs by station and half hour", () => {
  const pairs = () =>
    new HalfHourPairs<{ a: number; b: number }>(
      [NYC, LONDON],
      (v) => [v.a, v.b],
      (a, b) => ({ a, b }),
    );

  it('work a pair out once for a date, station and half hour, and give it back as it was', () => {
    const memo = pairs();
    let computed = 0;
    const ask = (city: CityAsset, date: string, slot: number, a: number, b: number) =>
      memo.remember(city, date, slot, () => {
        computed++;
        return { a, b };
      });
    expect(ask(NYC, '2026-08-01', 0, 1.25, -0.5)).toEqual({ a: 1.25, b: -0.5 });
    expect(ask(NYC, '2026-08-01', 0, 9, 9)).toEqual({ a: 1.25, b: -0.5 });
    // the next half hour, the other station, the next date, the last half hour: each its own
    expect(ask(NYC, '2026-08-01', 1, 2, 3)).toEqual({ a: 2, b: 3 });
    expect(ask(LONDON, '2026-08-01', 0, 4, 5)).toEqual({ a: 4, b: 5 });
    expect(ask(NYC, '2026-08-02', 0, 6, 7)).toEqual({ a: 6, b: 7 });
    expect(ask(LONDON, '2026-08-02', 47, Number.NEGATIVE_INFINITY, 0.1)).toEqual({
      a: Number.NEGATIVE_INFINITY,
      b: 0.1,
    });
    expect(ask(LONDON, '2026-08-02', 47, 0, 0)).toEqual({ a: Number.NEGATIVE_INFINITY, b: 0.1 });
    expect(computed).toBe(5);
  });

  it('forget the dates before the one given (the bound the world keeps), and work them out again if asked', () => {
    const memo = pairs();
    for (const date of ['2026-07-31', '2026-08-01', '2026-08-02']) memo.remember(NYC, date, 3, () => ({ a: 1, b: 1 }));
    memo.forgetBefore('2026-08-02');
    expect(memo.dates).toBe(1);
    expect(memo.remember(NYC, '2026-08-01', 3, () => ({ a: 2, b: 2 }))).toEqual({ a: 2, b: 2 });
    expect(memo.remember(NYC, '2026-08-02', 3, () => ({ a: 2, b: 2 }))).toEqual({ a: 1, b: 1 });
  });

  it('refuse a station it was not made for and a half hour outside the day', () => {
    const memo = pairs();
    expect(() => memo.remember(station('paris'), '2026-08-01', 0, () => ({ a: 1, b: 1 }))).toThrow(/paris/);
    expect(() => memo.remember(NYC, '2026-08-01', 48, () => ({ a: 1, b: 1 }))).toThrow(RangeError);
    expect(() => memo.remember(NYC, '2026-08-01', -1, () => ({ a: 1, b: 1 }))).toThrow(RangeError);
  });
});
