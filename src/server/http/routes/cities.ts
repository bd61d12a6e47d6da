import type { FastifyInstance } from 'fastify';
import type { City } from '../../../contract/cities.js';
import { json, V1_METHODS } from './v1-route.js';

export async function citiesRoutes(app: FastifyInstance, opts: { cities: readonly City[] }): Promise<void> {
  // the list never changes while the service runs: serialise it once
  const body = JSON.stringify({ count: opts.cities.length, data: opts.cities });
  app.route({ method: V1_METHODS, url: '/cities', handler: (_request, reply) => reply.type(json).send(body) });
}
