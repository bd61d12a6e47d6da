import type { FastifyInstance } from 'fastify';
import { StrategyQuery } from '../../../contract/queries.js';
import { STRATEGY_FAMILIES, strategyResponse } from '../../../contract/strategies.js';
import { parseDateOrInstant } from '../../../domain/city-time.js';
import type { ApiReads } from '../../store/api-reads.js';
import { badRequest } from '../http-error.js';
import { v1Schema } from '../openapi/operations.js';
import type { ResponseCache } from '../response-cache.js';
import { json, V1_METHODS } from './v1-route.js';

/** `/no24`, `/yescore`, `/svc-max-picks`: newest first, filtered, no cursor (spec 4.5). */
export async function strategyRoutes(
  app: FastifyInstance,
  opts: { reads: ApiReads; cache: ResponseCache },
): Promise<void> {
  for (const family of STRATEGY_FAMILIES) {
    app.route<{ Querystring: StrategyQuery }>({
      method: V1_METHODS,
      url: `/${family}`,
      schema: v1Schema({
        id: family,
        summary: `The ${family} strategy's trade records, newest first (no cursor).`,
        answer: strategyResponse(family),
        querystring: StrategyQuery,
      }),
      handler: (request, reply) => {
        const q = request.query;
        if (q.date !== undefined && !parseDateOrInstant(q.date)) {
          throw badRequest(`invalid query parameter 'date': ${q.date} is not a real date`);
        }
        const filter = {
          cityId: q.city_id,
          date: q.date,
          open: q.status === undefined ? undefined : q.status === 'open',
          limit: q.limit,
        };
        const body = opts.cache.get(`${family}|${JSON.stringify(filter)}`, opts.reads.dataVersion(), () => {
          const rows = opts.reads.strategies(family, filter);
          return `{"count":${rows.length},"data":[${rows.join(',')}]}`;
        });
        return reply.type(json).send(body);
      },
    });
  }
}
