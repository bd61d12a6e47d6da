import { openCache } from '../../src/cache/index.js';

/**
 * The service's clock the receiver tests run on. The events of webhook-events.ts are dated 2026-11-21 and the test
 * world starts at 2026-11-21T12:00Z (world-template.ts), whatever the host's date: a listener judging them on the
 * host's clock would refuse them all as replays (more than 24 h old, DESIGN 4) once the host is a day past them.
 * Midnight after them: every fixture is within its 24 h (the oldest, 09:00 on the 21st, is 15 h old).
 */
export const FIXTURE_NOW_MS = Date.parse('2026-11-22T00:00:00Z');
/** The service's clock less the host's, fixed when the test file loads: the clock then runs at the host's pace. */
export const FIXTURE_OFFSET_MS = FIXTURE_NOW_MS - Date.now();

/** The fixtures' clock, for a listener started in-process (its `now`). */
export const fixtureNow = (): Date => new Date(Date.now() + FIXTURE_OFFSET_MS);

/**
 * Keeps the fixtures' clock offset in the cache file `dbFile` (created if need be), as a sync against a service on
 * that clock would have: a `listen` or a monitor then starts on it (cli/market-clock.ts).
 */
export function onFixtureClock(dbFile: string, offsetMs = FIXTURE_OFFSET_MS): void {
  const cache = openCache(dbFile);
  try {
    cache.streams.recordClockOffset(offsetMs);
  } finally {
    cache.close();
  }
}
