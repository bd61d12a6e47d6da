import { describe, expect, it } from 'vitest';
import { openCache } from '../../../src/cache/index.js';
import type { City } from '../../../src/contract/cities.js';
import type { No24Record } from '../../../src/contract/strategies.js';

const city = (city_id: string, tz: string) => ({ city_id, tz }) as unknown as City;

/** no24 record `id` of 2026-11-21: odd ids in New York, even ones in Paris. */
const record = (id: number) =>
  ({
    id,
    city_id: id % 2 ? 'nyc' : 'paris',
    local_date: '2026-11-21',
    bucket_slug: '48-49f',
    bucket_label: '48-49°F',
    strategy: 'no24',
    side: 'NO',
    shares: 12.5,
    stake: 10,
    no_ask: 0.8,
    current_no_price: 0.75,
    model: 'ecmwf',
    model_exact_pct: 20,
    outcome: null,
    roi: null,
  }) as unknown as No24Record;

describe('the Signals feed over many strategy records of one day', () => {
  it('orders them by their entry instant, then id, and reads whole only the rows of the page', () => {
    const cache = openCache(':memory:');
    cache.resources.upsertCities([city('nyc', 'America/New_York'), city('paris', 'Europe/Paris')]);
    cache.resources.upsertStrategy(
      'no24',
      Array.from({ length: 300 }, (_, i) => record(i + 1)),
    );
    // no24 enters at 00:01 local: New York (UTC-5) at 05:01Z, Paris (UTC+1) at 2026-11-20T23:01Z, so New York's
    // 150 records (the odd ids) come first, highest id first, then Paris's
    const nycAt = Date.parse('2026-11-21T05:01:00Z');
    const parisAt = Date.parse('2026-11-20T23:01:00Z');
    const before = cache.readStats.rows;
    const page = cache.feed.older(null, 5);
    expect(page.map((s) => [s.kind, s.key, s.at])).toEqual([
      ['no24', 299, nycAt],
      ['no24', 297, nycAt],
      ['no24', 295, nycAt],
      ['no24', 293, nycAt],
      ['no24', 291, nycAt],
    ]);
    // the scan reads the 300 light rows (id, city, date) and the cities; whole rows only for the 5 shown
    expect(cache.readStats.rows - before).toBe(2 + 300 + 5);
    const last = page[4] as (typeof page)[number];
    // the next 147: New York's other 145 (289 down to 1), then Paris's newest two
    const across = cache.feed.older({ at: last.at, rank: last.rank, key: last.key }, 147);
    expect(across.slice(143).map((s) => [s.key, s.at])).toEqual([
      [3, nycAt],
      [1, nycAt],
      [300, parisAt],
      [298, parisAt],
    ]);
    cache.close();
  });
});
