import type { Cache } from '../cache/index.js';
import type { ApiClient } from '../client/api-client.js';
import { AuthRejected } from '../client/errors.js';
import type { StreamName } from '../contract/config.js';
import { LIMITS } from '../contract/limits.js';
import { STRATEGY_FAMILIES, type StrategyFamily } from '../contract/strategies.js';
import { DEFAULT_INTERVALS_MS, LIVE_HISTORY_TABLES, type LiveHistoryStream } from '../domain/streams.js';
import { answerOf } from './answer.js';
import { addCounts, noCounts, PartialFailure, type StreamCounts } from './counts.js';
import { liveHistoryPass, type PassContext } from './history-streams.js';
import { pollFusionLocks } from './lock-poller.js';

export { PartialFailure };

export type StreamPass = (client: ApiClient, cache: Cache, context: PassContext) => Promise<StreamCounts>;

/** The cities the other streams walk: the cache's, fetched first when it has none yet. */
async function cityIds(client: ApiClient, cache: Cache): Promise<string[]> {
  const cached = cache.resources.cityIds();
  if (cached.length > 0) return cached;
  const cities = await client.cities();
  cache.resources.upsertCities(cities, answerOf('cities', cities));
  return cities.map((c) => c.city_id);
}

/**
 * Runs a per-city fetch for every city. One city's failure does not cost the others their update: they are stored,
 * then the stream reports the failures (a rejected key still stops everything at once).
 */
async function eachCity(
  client: ApiClient,
  cache: Cache,
  fetchCity: (cityId: string) => Promise<StreamCounts>,
): Promise<StreamCounts> {
  const counts = noCounts();
  const failures: unknown[] = [];
  let succeeded = 0;
  for (const id of await cityIds(client, cache)) {
    try {
      const city = await fetchCity(id);
      counts.fetched += city.fetched;
      counts.inserted += city.inserted;
      counts.updated += city.updated;
      succeeded++;
    } catch (error) {
      if (error instanceof AuthRejected) throw error;
      failures.push(error);
    }
  }
  // nothing got through (the service is down, say): the first failure as it is, so its kind decides the exit code
  if (succeeded === 0 && failures.length > 0) throw failures[0];
  if (failures.length > 0) {
    const reasons = failures.map((error) => (error instanceof Error ? error.message : String(error)));
    const message = `${failures.length} of the cities failed, the rest were stored; first: ${reasons[0]}`;
    throw new PartialFailure(message, reasons, counts, failures[0]);
  }
  return counts;
}

const strategyPass =
  (family: StrategyFamily): StreamPass =>
  async (client, cache) => {
    const counts = noCounts();
    // open positions, and the newest settled ones: an open record that settles shows up in the second list
    for (const status of ['open', 'resolved'] as const) {
      const rows = await client.strategy(family, { status, limit: LIMITS.maxPageSize });
      addCounts(
        counts,
        rows.length,
        cache.resources.upsertStrategy(family, rows, answerOf(`${family}/${status}`, rows)),
      );
    }
    return counts;
  };

/** Every polled stream of DESIGN.md section 2, in the order a pass runs them, with its default interval. */
export const STREAMS: { name: StreamName; everyMs: number; pass: StreamPass }[] = [
  {
    name: 'cities',
    everyMs: DEFAULT_INTERVALS_MS.cities,
    pass: async (client, cache) => {
      const cities = await client.cities();
      return addCounts(noCounts(), cities.length, cache.resources.upsertCities(cities, answerOf('cities', cities)));
    },
  },
  {
    name: 'current',
    everyMs: DEFAULT_INTERVALS_MS.current,
    pass: (client, cache) =>
      eachCity(client, cache, async (id) => {
        const current = await client.current(id);
        return addCounts(noCounts(), 4, cache.resources.addCurrent(current, answerOf(`current/${id}`, current)));
      }),
  },
  {
    name: 'forecasts',
    everyMs: DEFAULT_INTERVALS_MS.forecasts,
    pass: (client, cache) =>
      eachCity(client, cache, async (id) => {
        const forecasts = await client.forecasts(id);
        return addCounts(
          noCounts(),
          3,
          cache.resources.addForecasts(forecasts, answerOf(`forecasts/${id}`, forecasts)),
        );
      }),
  },
  ...STRATEGY_FAMILIES.map((family) => ({
    name: family,
    everyMs: DEFAULT_INTERVALS_MS[family],
    pass: strategyPass(family),
  })),
  { name: 'fusion-locks', everyMs: DEFAULT_INTERVALS_MS['fusion-locks'], pass: pollFusionLocks },
  // DESIGN 4's live history streams: bucket prices, METAR readings and the daily tables without a manual backfill
  ...(Object.keys(LIVE_HISTORY_TABLES) as LiveHistoryStream[]).map((name) => ({
    name,
    everyMs: DEFAULT_INTERVALS_MS[name],
    pass: liveHistoryPass(name),
  })),
];
