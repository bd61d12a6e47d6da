import { describe, expect, it } from 'vitest';
import { loadCities } from '../../src/server/world/cities.js';
import { forgetBefore } from '../../src/server/world/forget-before.js';
import { Models } from '../../src/server/world/models.js';
import { Weather } from '../../src/server/world/weather.js';

describe("the world's memos forgetting old days", () => {
  it('drop every value of a date before the one given, whatever field of the key holds it', () => {
    const memo = new Map<string, number>([
      ['tmax|gfs|nyc|2026-08-01|1785000000000', 1],
      ['nyc|2026-08-02', 2],
      ['2026-08-03|14', 3],
      ['nyc|2026-08-01|14', 4],
      ['peak|nyc', 5],
    ]);
    forgetBefore(memo, '2026-08-02');
    expect([...memo.keys()]).toEqual(['nyc|2026-08-02', '2026-08-03|14', 'peak|nyc']);
  });

  it('give the same values when a forgotten day is asked for again (the memos are of pure functions)', () => {
    const [city] = loadCities();
    if (!city) throw new Error('no city');
    const weather = new Weather(7);
    const models = new Models(7, weather);
    const ask = () => ({
      metar: weather.metarMaxC(city, '2026-07-10'),
      running: weather.runningMaxC(city, '2026-07-10', Date.UTC(2026, 6, 10, 18)),
      weights: models.weights(city, '2026-07-10').map((w) => w.weight),
    });
    const first = ask();
    weather.forgetBefore('2026-08-01');
    models.forgetBefore('2026-08-01');
    expect(ask()).toEqual(first);
  });
});
