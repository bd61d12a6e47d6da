import type { FastifyInstance } from 'fastify';
import { HISTORICAL_RESPONSE, HISTORICAL_TABLES, HISTORICAL_TIME_COLUMN } from '../../../contract/historical.js';
import { HistoricalQuery } from '../../../contract/queries.js';
import type { ApiReads } from '../../store/api-reads.js';
import { v1Schema } from '../openapi/operations.js';
import { timeBounds } from '../query-bounds.js';
import type { ResponseCache } from '../response-cache.js';
import { json, V1_METHODS } from './v1-route.js';

/** `/historical/{table}`: one static route per whitelisted table; the cursor is the last id of the page. */
export async function historicalRoutes(
  app: FastifyInstance,
  opts: { reads: ApiReads; cache: ResponseCache },
): Promise<void> {
  for (const table of HISTORICAL_TABLES) {
    app.route<{ Querystring: HistoricalQuery }>({
      method: V1_METHODS,
      url: `/historical/${table}`,
      schema: v1Schema({
        id: `historical_${table}`,
        summary: `Rows of ${table}, newest id first, a page at a time.`,
        description: `\`since\` and \`until\` bound its \`${HISTORICAL_TIME_COLUMN[table].column}\` column, inclusive.`,
        answer: HISTORICAL_RESPONSE[table],
        querystring: HistoricalQuery,
      }),
      handler: (request, reply) => {
        const q = request.query;
        const bounds = timeBounds(HISTORICAL_TIME_COLUMN[table].kind, q.since, q.until);
        const filter = {
          cityId: q.city_id,
          since: bounds.since,
          until: bounds.until,
          beforeId: q.cursor === undefined ? undefined : Number(q.cursor),
          limit: q.limit,
        };
        const body = opts.cache.get(`${table}|${JSON.stringify(filter)}`, opts.reads.dataVersion(), () => {
          const page = opts.reads.historical(table, filter);
          return `{"table":"${table}","count":${page.rows.length},"next_cursor":${page.nextCursor ?? 'null'},"data":[${page.rows.join(',')}]}`;
        });
        return reply.type(json).send(body);
      },
    });
  }
}
