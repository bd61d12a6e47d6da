import type { FastifyInstance } from 'fastify';
import type { City } from '../../../contract/cities.js';
import { CURRENT_SOURCES, CurrentResponse } from '../../../contract/current.js';
import { FORECAST_LAYERS, ForecastsResponse } from '../../../contract/forecasts.js';
import { CityQuery } from '../../../contract/queries.js';
import type { ApiReads } from '../../store/api-reads.js';
import { HttpError, notFound } from '../http-error.js';
import { v1Schema } from '../openapi/operations.js';
import { json, V1_METHODS } from './v1-route.js';

/** `/current` and `/forecasts`: the latest row of each source or layer for one city. */
export async function observationRoutes(
  app: FastifyInstance,
  opts: { cities: readonly City[]; reads: ApiReads },
): Promise<void> {
  const known = new Set(opts.cities.map((c) => c.city_id));
  const latest = (kind: 'current_obs' | 'current_forecast', members: readonly string[], cityId: string) => {
    if (!known.has(cityId)) throw notFound(`unknown city_id '${cityId}'; see /cities`);
    const rows = opts.reads.latest(kind, cityId);
    const parts = members.map((member) => {
      const row = rows.get(member);
      if (row === undefined) throw new HttpError(500, `upstream failure: no ${member} for ${cityId} yet`);
      return `${JSON.stringify(member)}:${row}`;
    });
    return `{"data":{"city_id":${JSON.stringify(cityId)},${parts.join(',')}}}`;
  };

  app.route<{ Querystring: CityQuery }>({
    method: V1_METHODS,
    url: '/current',
    schema: v1Schema({
      id: 'current',
      summary: 'The latest reading of each current source for one city.',
      answer: CurrentResponse,
      querystring: CityQuery,
      unknownCity: true,
    }),
    handler: (request, reply) => reply.type(json).send(latest('current_obs', CURRENT_SOURCES, request.query.city_id)),
  });
  app.route<{ Querystring: CityQuery }>({
    method: V1_METHODS,
    url: '/forecasts',
    schema: v1Schema({
      id: 'forecasts',
      summary: 'The latest of each forecast layer for one city.',
      answer: ForecastsResponse,
      querystring: CityQuery,
      unknownCity: true,
    }),
    handler: (request, reply) =>
      reply.type(json).send(latest('current_forecast', FORECAST_LAYERS, request.query.city_id)),
  });
}
