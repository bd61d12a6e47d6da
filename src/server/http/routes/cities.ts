import type { FastifyInstance } from 'fastify';
import { CitiesResponse, type City } from '../../../contract/cities.js';
import { v1Schema } from '../openapi/operations.js';
import { json, V1_METHODS } from './v1-route.js';

export async function citiesRoutes(app: FastifyInstance, opts: { cities: readonly City[] }): Promise<void> {
  // the list never changes while the service runs: serialise it once
  const body = JSON.stringify({ count: opts.cities.length, data: opts.cities });
  app.route({
    method: V1_METHODS,
    url: '/cities',
    schema: v1Schema({ id: 'cities', summary: 'The cities the service covers.', answer: CitiesResponse }),
    handler: (_request, reply) => reply.type(json).send(body),
  });
}
