import { describe, expect, it } from 'vitest';
import { SCAN_CHUNK } from '../../../src/cache/feed/derived-scan.js';
import { type Cache, type FeedKey, openCache, type Signal } from '../../../src/cache/index.js';
import { NYC, no24, PARIS } from '../../helpers/cache-builder.js';

/**
 * 900 no24 records, 300 a day over three days: ids 1-300 of 2026-11-19, 301-600 of the 20th, 601-900 of the 21st;
 * odd ids in New York, even ones in Paris. The scan reads them by (local_date, id), a chunk of 256 rows a step.
 */
function cacheOf900(): Cache {
  const cache = openCache(':memory:');
  cache.resources.upsertCities([NYC, PARIS]);
  const dates = ['2026-11-19', '2026-11-20', '2026-11-21'];
  const records = Array.from({ length: 900 }, (_, i) =>
    no24({
      id: i + 1,
      city_id: (i + 1) % 2 ? 'nyc' : 'paris',
      local_date: dates[Math.floor(i / 300)] as string,
      bucket_label: '48-49°F',
      shares: 10,
      ask: 0.8,
    }),
  );
  cache.resources.upsertStrategy('no24', records);
  return cache;
}

// no24 enters at 00:01 local; in November New York is UTC-5, Paris UTC+1
const nyc20 = Date.parse('2026-11-20T05:01:00Z');
const nyc21 = Date.parse('2026-11-21T05:01:00Z');
const NO24 = 9;
const at = (at: number, key: number): FeedKey => ({ at, rank: NO24, key });
const keysOf = (page: Signal[]) => page.map((s) => [s.kind, s.key, s.at]);

/** A stepped read run to its end: its page, and how many times it stopped for the event loop. */
function stepped(steps: Generator<void, Signal[], void>): { page: Signal[]; yields: number } {
  let yields = 0;
  for (;;) {
    const step = steps.next();
    if (step.done) return { page: step.value, yields };
    yields++;
  }
}

// a read stops after each of the six stored sources and each of the four derived ones, and after the page's
// signals of each source (here only no24's, at most 100 a step): 6 + 4 + 1 = 11 when every scan is one chunk
const UNCHUNKED_YIELDS = 11;

describe('the Signals feed, scanning many strategy records a chunk a step', () => {
  it('is tested with chunks of 256 rows', () => {
    // the pages below are worked out for this chunk: another size moves the chunk boundaries the test crosses
    expect(SCAN_CHUNK).toBe(256);
  });

  it('gives the older page across a chunk boundary, and stops once the page is complete', () => {
    const cache = cacheOf900();
    const before = cache.readStats.rows;
    // after New York's record 649 of the 21st: its next odd ids. The scan (date descending, id descending) reads
    // 900..645 in its first chunk (256 rows), then 644..601 and the 20th's 600..389 in its second: 647 and 645
    // come from the first chunk, 643 and 641 from the second
    const { page, yields } = stepped(cache.feed.olderSteps(at(nyc21, 649), 4));
    expect(keysOf(page)).toEqual([
      ['no24', 647, nyc21],
      ['no24', 645, nyc21],
      ['no24', 643, nyc21],
      ['no24', 641, nyc21],
    ]);
    // the page ends at 05:01Z on the 21st; a record of the 19th enters at most 37 h after that day's 00:00Z, at
    // 13:00Z on the 20th: the first row of the 19th (id 300) ends the scan. 300 + 300 + 1 = 601 rows, three chunks
    // (256 + 256 + 89): two more stops than a scan of one chunk. Rows read: the 2 cities, the 601, the 4 whole
    expect(yields).toBe(UNCHUNKED_YIELDS + 2);
    expect(cache.readStats.rows - before).toBe(2 + 601 + 4);
    cache.close();
  });

  it('gives the newer page across a chunk boundary, and its stops grow with the rows scanned', () => {
    const cache = cacheOf900();
    // before New York's record 505 of the 20th, nearest first: its next odd ids. The scan (date ascending, id
    // ascending) starts at the 19th (the date of 37 h before 05:01Z on the 20th: the 18th, the first date held is
    // the 19th) and reads 1..256, then 257..300 and 301..512, then 513..: 507, 509, 511 in the second chunk, 513 in
    // the third
    let before = cache.readStats.rows;
    const near = stepped(cache.feed.newerSteps(at(nyc20, 505), 4));
    expect(keysOf(near.page)).toEqual([
      ['no24', 507, nyc20],
      ['no24', 509, nyc20],
      ['no24', 511, nyc20],
      ['no24', 513, nyc20],
    ]);
    // the page ends at 05:01Z on the 20th; a record of the 21st enters at least 15 h before that day's 00:00Z, at
    // 09:00Z on the 20th: the first row of the 21st (id 601) ends the scan, 601 rows in three chunks
    expect(near.yields).toBe(UNCHUNKED_YIELDS + 2);
    expect(cache.readStats.rows - before).toBe(2 + 601 + 4);

    // before New York's 891 of the 21st: the scan starts at the 19th too and reads all 900 (no date after the
    // 21st ends it), 256 + 256 + 256 + 132: four chunks, one stop more
    before = cache.readStats.rows;
    const far = stepped(cache.feed.newerSteps(at(nyc21, 891), 4));
    expect(keysOf(far.page)).toEqual([
      ['no24', 893, nyc21],
      ['no24', 895, nyc21],
      ['no24', 897, nyc21],
      ['no24', 899, nyc21],
    ]);
    expect(far.yields).toBe(UNCHUNKED_YIELDS + 3);
    expect(cache.readStats.rows - before).toBe(2 + 900 + 4);
    cache.close();
  });

  it('makes a long page of one source a hundred signals a step', () => {
    const cache = cacheOf900();
    const before = cache.readStats.rows;
    // the newest 250: New York's 150 of the 21st (899..601 at 05:01Z), then Paris's 100 newest of the 21st (900..702,
    // at 23:01Z on the 20th)
    const { page, yields } = stepped(cache.feed.olderSteps(null, 250));
    expect(page).toHaveLength(250);
    expect(keysOf([page[0], page[149], page[150], page[249]] as Signal[])).toEqual([
      ['no24', 899, nyc21],
      ['no24', 601, nyc21],
      ['no24', 900, Date.parse('2026-11-20T23:01:00Z')],
      ['no24', 702, Date.parse('2026-11-20T23:01:00Z')],
    ]);
    // the page ends at 23:01Z on the 20th, after 13:00Z on the 20th (the 19th's latest entry): the first row of
    // the 19th ends the scan, 601 rows in three chunks; the 250 signals are made in three steps (100, 100, 50)
    expect(yields).toBe(6 + 4 + 2 + 3);
    expect(cache.readStats.rows - before).toBe(2 + 601 + 250);
    cache.close();
  });

  it('leaves the connection free between two chunks: other reads and a write run to their end meanwhile', () => {
    const cache = cacheOf900();
    const paused = cache.feed.olderSteps(at(nyc21, 649), 4);
    // six stored sources, then the locks, svc-max picks and yescore (empty), then no24's first chunk
    for (let i = 0; i < 10; i++) expect(paused.next().done).toBe(false);
    // the same scan's statements, run to their end by other reads, and a write on the same connection
    expect(keysOf(cache.feed.older(at(nyc21, 645), 2))).toEqual([
      ['no24', 643, nyc21],
      ['no24', 641, nyc21],
    ]);
    expect(keysOf(cache.feed.newer(at(nyc20, 505), 2))).toEqual([
      ['no24', 507, nyc20],
      ['no24', 509, nyc20],
    ]);
    // a record of the 18th: older than any the paused page can hold
    cache.resources.upsertStrategy('no24', [
      no24({ id: 901, city_id: 'nyc', local_date: '2026-11-18', bucket_label: '48-49°F', shares: 10, ask: 0.8 }),
    ]);
    expect(keysOf(stepped(paused).page)).toEqual([
      ['no24', 647, nyc21],
      ['no24', 645, nyc21],
      ['no24', 643, nyc21],
      ['no24', 641, nyc21],
    ]);
    cache.close();
  });
});
