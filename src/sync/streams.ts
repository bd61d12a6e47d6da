import type { Cache } from '../cache/cache.js';
import type { ApiClient } from '../client/api-client.js';
import { LIMITS } from '../contract/limits.js';
import { STRATEGY_FAMILIES, type StrategyFamily } from '../contract/strategies.js';
import { addCounts, noCounts, type StreamCounts } from './counts.js';
import { pollFusionLocks } from './lock-poller.js';

export type StreamPass = (client: ApiClient, cache: Cache) => Promise<StreamCounts>;

/** The cities the other streams walk: the cache's, fetched first when it has none yet. */
async function cityIds(client: ApiClient, cache: Cache): Promise<string[]> {
  const cached = cache.exportRows('cities').map((json) => (JSON.parse(json) as { city_id: string }).city_id);
  if (cached.length > 0) return cached;
  const cities = await client.cities();
  cache.upsertCities(cities);
  return cities.map((c) => c.city_id);
}

const strategyPass =
  (family: StrategyFamily): StreamPass =>
  async (client, cache) => {
    const counts = noCounts();
    // open positions, and the newest settled ones: an open record that settles shows up in the second list
    for (const status of ['open', 'resolved'] as const) {
      const rows = await client.strategy(family, { status, limit: LIMITS.maxPageSize });
      addCounts(counts, rows.length, cache.upsertStrategy(family, rows));
    }
    return counts;
  };

/** Every polled stream of DESIGN.md section 2, in the order a pass runs them, with its default interval. */
export const STREAMS: { name: string; everyMs: number; pass: StreamPass }[] = [
  {
    name: 'cities',
    everyMs: 3_600_000,
    pass: async (client, cache) => {
      const cities = await client.cities();
      return addCounts(noCounts(), cities.length, cache.upsertCities(cities));
    },
  },
  {
    name: 'current',
    everyMs: 60_000,
    pass: async (client, cache) => {
      const counts = noCounts();
      for (const id of await cityIds(client, cache)) addCounts(counts, 4, cache.addCurrent(await client.current(id)));
      return counts;
    },
  },
  {
    name: 'forecasts',
    everyMs: 300_000,
    pass: async (client, cache) => {
      const counts = noCounts();
      for (const id of await cityIds(client, cache))
        addCounts(counts, 3, cache.addForecasts(await client.forecasts(id)));
      return counts;
    },
  },
  ...STRATEGY_FAMILIES.map((family) => ({ name: family, everyMs: 120_000, pass: strategyPass(family) })),
  { name: 'fusion-locks', everyMs: 30_000, pass: pollFusionLocks },
];
