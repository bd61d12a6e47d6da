import { describe, expect, it } from 'vitest';
import { loadCities } from '../../src/server/world/cities.js';
import { DayMemo, memoKey } from '../../src/server/world/day-memo.js';
import { Models } from '../../src/server/world/models.js';
import { Weather } from '../../src/server/world/weather.js';

describe("the world's memos by day", () => {
  it('work a value out once for a date and key, and keep dates apart', () => {
    const memo = new DayMemo<number>();
    let computed = 0;
    const ask = (date: string, key: number, value: number) =>
      memo.remember(date, key, () => {
        computed++;
        return value;
      });
    expect(ask('2026-08-01', 3, 10)).toBe(10);
    expect(ask('2026-08-01', 3, 99)).toBe(10);
    expect(ask('2026-08-02', 3, 20)).toBe(20);
    expect(ask('2026-08-02', 4, 30)).toBe(30);
    expect(computed).toBe(3);
    expect(memo.size).toBe(3);
  });

  it('forget every value of a date before the one given, and only those (the bound the world keeps)', () => {
    const memo = new DayMemo<number>();
    for (const date of ['2026-07-31', '2026-08-01', '2026-08-02', '2026-08-03'])
      for (const key of [0, 1]) memo.remember(date, key, () => 1);
    memo.forgetBefore('2026-08-02');
    expect(memo.size).toBe(4);
    let recomputed = 0;
    memo.remember('2026-08-01', 0, () => ++recomputed);
    memo.remember('2026-08-02', 0, () => ++recomputed);
    expect(recomputed).toBe(1);
  });

  it("make one small integer of a key's parts, each after the first under 64", () => {
    expect(memoKey(5)).toBe(5);
    expect(memoKey(3, 5)).toBe(197);
    // a run's six-hour index in 2026 (about 82,000), a model, a station: still under 2^31
    expect(memoKey(82_000, 6, 12)).toBe(335_872_396);
    expect(memoKey(0, 47)).toBe(47);
    expect(() => memoKey(1, 64)).toThrow(RangeError);
    expect(() => memoKey(1, -1)).toThrow(RangeError);
    expect(() => memoKey(1, 0.5)).toThrow(RangeError);
  });

  it('give the same values when a forgotten day is asked for again (the memos are of pure functions)', () => {
    const [city] = loadCities();
    if (!city) throw new Error('no city');
    const weather = new Weather(7);
    const models = new Models(7, weather);
    const ask = () => ({
      metar: weather.metarMaxC(city, '2026-07-10'),
      running: weather.runningMaxC(city, '2026-07-10', Date.UTC(2026, 6, 10, 18)),
      reading: weather.metarC(city, Date.UTC(2026, 6, 10, 12)),
      weights: models.weights(city, '2026-07-10').map((w) => w.weight),
      tmax: models.modelTmaxC({ model: 'gfs', bias: 0.5, sd: 0.9 }, city, '2026-07-10', Date.UTC(2026, 6, 9, 6)),
    });
    const first = ask();
    weather.forgetBefore('2026-08-01');
    models.forgetBefore('2026-08-01');
    expect(ask()).toEqual(first);
  });
});
