import { describe, expect, it } from 'vitest';
import { openCache } from '../../../src/cache/index.js';
import type { City } from '../../../src/contract/cities.js';
import type { No24Record, YescoreRecord } from '../../../src/contract/strategies.js';

const city = (city_id: string, tz: string) => ({ city_id, tz }) as unknown as City;

/** A strategy record of New York's 2026-11-21: no24 and yescore both enter at 00:01 local, 05:01Z. */
const record = (id: number, strategy: 'no24' | 'yescore') => ({
  id,
  city_id: 'nyc',
  local_date: '2026-11-21',
  bucket_slug: '48-49f',
  bucket_label: '48-49°F',
  strategy,
  side: strategy === 'no24' ? 'NO' : 'YES',
  shares: 12.5,
  stake: 10,
  no_ask: 0.8,
  yes_ask: 0.2,
  current_no_price: 0.75,
  model: 'ecmwf',
  model_exact_pct: 20,
  outcome: null,
  roi: null,
});

describe('a page of the Signals feed over several sources', () => {
  it('reads whole only the rows that make the page, whichever source they come from', () => {
    const cache = openCache(':memory:');
    cache.resources.upsertCities([city('nyc', 'America/New_York')]);
    cache.resources.upsertStrategy(
      'no24',
      Array.from({ length: 300 }, (_, i) => record(i + 1, 'no24') as unknown as No24Record),
    );
    cache.resources.upsertStrategy(
      'yescore',
      Array.from({ length: 300 }, (_, i) => record(1001 + i, 'yescore') as unknown as YescoreRecord),
    );
    const at = Date.parse('2026-11-21T05:01:00Z');
    const before = cache.readStats.rows;
    const page = cache.feed.older(null, 5);
    // at one instant yescore (rank 8) comes before no24 (rank 9), highest id first
    expect(page.map((s) => [s.kind, s.key, s.at])).toEqual([
      ['yescore', 1300, at],
      ['yescore', 1299, at],
      ['yescore', 1298, at],
      ['yescore', 1297, at],
      ['yescore', 1296, at],
    ]);
    // the cities (1), each source's light scan of its 300 rows, and whole rows for the 5 shown only: none of no24's
    // 5 best candidates, which the page leaves out, is read whole
    expect(cache.readStats.rows - before).toBe(1 + 300 + 300 + 5);
    // and the next page across the two sources: yescore's last 295, then no24's newest 5
    const fifth = page[4] as (typeof page)[number];
    const last = cache.feed.older({ at: fifth.at, rank: fifth.rank, key: fifth.key }, 300);
    expect(last.slice(-6).map((s) => [s.kind, s.key])).toEqual([
      ['yescore', 1001],
      ['no24', 300],
      ['no24', 299],
      ['no24', 298],
      ['no24', 297],
      ['no24', 296],
    ]);
  });
});
