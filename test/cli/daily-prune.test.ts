import { afterAll, describe, expect, it } from 'vitest';
import { pruneDaily } from '../../src/cli/daily-prune.js';
import { ServiceClock } from '../../src/client/service-clock.js';
import { fillTwentyDays } from '../cache/twenty-days.js';
import { handCaches } from '../helpers/cache-builder.js';
import { PATIENCE_MS } from '../helpers/patience.js';

/**
 * The prune a `sync` daemon and a live monitor run once a day of the service's clock (daily-prune.ts), over twenty
 * hand-built days (cache/twenty-days.ts) as of 2026-11-25T12:12Z: the first look thins the 4,368 rows that
 * retention-prune.test.ts works out by hand (156 hours), in one line, and the day is kept in the cache (a second look
 * that day, from this process or another, is retention-prune.test.ts's dailyPrune case). It looks first when the
 * service has answered: the offset the cache kept may be another service's.
 */
const caches = handCaches('daily-prune-');
afterAll(() => caches.close());

const until = async (ok: () => boolean) => {
  const end = Date.now() + PATIENCE_MS;
  while (!ok()) {
    if (Date.now() > end) throw new Error('not yet');
    await new Promise((r) => setTimeout(r, 20));
  }
};

describe('pruneDaily', () => {
  it('thins once the service has answered, on its clock, with one line', async () => {
    const cache = caches.open().cache;
    fillTwentyDays(cache);
    const lines: string[] = [];
    // the host's clock stands still; the offset kept from another service puts it at 2026-11-20T00:00Z
    const host = Date.parse('2026-11-01T00:00:00Z');
    const clock = new ServiceClock({ hostNow: () => host, offsetMs: Date.parse('2026-11-20T00:00:00Z') - host });
    const stop = pruneDaily(cache, clock, 14, (l) => lines.push(l));
    try {
      // before any answer nothing is pruned: the day is not claimed
      await new Promise<void>((resolve) => setImmediate(resolve));
      expect(cache.retention.mark('@daily')).toBeNull();
      clock.observe('Wed, 25 Nov 2026 12:12:00 GMT');
      await until(() => lines.length > 0);
      expect(lines).toEqual([
        expect.stringMatching(
          /^retention: thinned 4,368 rows older than 2026-11-11T12:12:00\.000Z \(detail_days 14\); \d+\.\d MB -> \d+\.\d MB$/,
        ),
      ]);
      // the day kept in the cache for every process on it: 2026-11-25 is day 20,782 since 1970-01-01 (56 years of 365
      // days and 14 leap days to 2026-01-01, 20,454; then January to October, 304, and 24 days of November)
      expect(cache.retention.mark('@daily')).toBe(20_782);
    } finally {
      stop();
    }
  });

  it('with retention null does nothing', () => {
    const cache = caches.open().cache;
    const clock = new ServiceClock({ offsetMs: 0 });
    const stop = pruneDaily(cache, clock, null, () => undefined);
    clock.observe(new Date().toUTCString());
    stop();
    expect(cache.retention.mark('@daily')).toBeNull();
  });
});
