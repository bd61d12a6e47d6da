import type { FastifyInstance } from 'fastify';
import { FusionLocksResponse } from '../../../contract/fusion-locks.js';
import { FusionLockQuery } from '../../../contract/queries.js';
import type { ApiReads } from '../../store/api-reads.js';
import { decodeLockCursor, encodeLockCursor } from '../lock-cursor.js';
import { v1Schema } from '../openapi/operations.js';
import { timeBounds } from '../query-bounds.js';
import type { ResponseCache } from '../response-cache.js';
import { json, V1_METHODS } from './v1-route.js';

/** `/fusion-locks`: newest lock first, keyset on (locked_at, id) so a page chain never skips or repeats. */
export async function fusionLockRoutes(
  app: FastifyInstance,
  opts: { reads: ApiReads; cache: ResponseCache },
): Promise<void> {
  app.route<{ Querystring: FusionLockQuery }>({
    method: V1_METHODS,
    url: '/fusion-locks',
    schema: v1Schema({
      id: 'fusion_locks',
      summary: 'Fusion locks, newest lock first, a page at a time.',
      description:
        'Poll with the newest `locked_at` seen as `since` (inclusive): a resolved lock comes again, same `id`.',
      answer: FusionLocksResponse,
      querystring: FusionLockQuery,
    }),
    handler: (request, reply) => {
      const q = request.query;
      const filter = {
        cityId: q.city_id,
        since: timeBounds('instant', q.since, undefined).since,
        resolved: q.resolved === undefined ? undefined : q.resolved === 'true',
        after: q.cursor === undefined ? undefined : decodeLockCursor(q.cursor),
        limit: q.limit,
      };
      const body = opts.cache.get(`locks|${JSON.stringify(filter)}`, opts.reads.dataVersion(), () => {
        const page = opts.reads.fusionLocks(filter);
        const next = page.nextCursor === null ? 'null' : `"${encodeLockCursor(page.nextCursor)}"`;
        return `{"count":${page.rows.length},"next_cursor":${next},"data":[${page.rows.join(',')}]}`;
      });
      return reply.type(json).send(body);
    },
  });
}
