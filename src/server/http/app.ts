import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyInstance, LogController } from 'fastify';
import type { City } from '../../contract/cities.js';
import { API_PREFIX } from '../../contract/limits.js';
import { type PagesOptions, pagesPlugin } from '../pages/pages-plugin.js';
import type { ApiReads } from '../store/api-reads.js';
import type { KeyStore } from '../store/keys.js';
import { openapiDocument } from './openapi/document.js';
import { authPlugin } from './plugins/auth.js';
import { corsPlugin } from './plugins/cors.js';
import { errorsPlugin, frameworkError } from './plugins/errors.js';
import { methodGuardPlugin } from './plugins/method-guard.js';
import { rateLimitPlugin } from './plugins/rate-limit.js';
import { worldDatePlugin } from './plugins/world-date.js';
import { queryValidatorCompiler } from './query-validator.js';
import { ResponseCache } from './response-cache.js';
import { citiesRoutes } from './routes/cities.js';
import { fusionLockRoutes } from './routes/fusion-locks.js';
import { historicalRoutes } from './routes/historical.js';
import { observationRoutes } from './routes/observations.js';
import { strategyRoutes } from './routes/strategies.js';

export const ACCOUNT_PREFIX = '/account';

export interface AppOptions {
  cities: readonly City[];
  reads: ApiReads;
  keys: KeyStore;
  rateLimitPerMinute: number;
  /** The account pages under `/account/` (DESIGN 7); left out, there are none. */
  pages?: PagesOptions;
  /** Log level for the service's own lines (stderr); requests themselves are not logged. */
  logLevel?: 'error' | 'warn' | 'info' | 'silent';
  /** The world's clock (ms): every answer's `Date` header; left out, the host's (Node's own header). */
  now?: () => number;
}

/**
 * The v1 HTTP interface. Order matters: CORS headers go on every answer, then under the prefix the OpenAPI document
 * sees every route registered after it, the method guard (405) runs before auth (401), and the rate limit counts
 * authenticated requests by key (the document, which needs none, by address).
 */
export async function buildApp(opts: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: {
      level: opts.logLevel ?? 'warn',
      redact: ['req.headers.authorization', 'req.headers["x-api-key"]', 'req.headers.cookie'],
    },
    logController: new LogController({ disableRequestLogging: true }),
    exposeHeadRoutes: false,
    frameworkErrors: frameworkError,
  }).withTypeProvider<TypeBoxTypeProvider>();
  app.setValidatorCompiler(queryValidatorCompiler);

  if (opts.now) await app.register(worldDatePlugin, { now: opts.now });
  await app.register(corsPlugin);
  await app.register(errorsPlugin);
  const cache = new ResponseCache();
  const openapi = openapiDocument();
  await app.register(
    async (v1) => {
      await v1.register(openapi.collect);
      await v1.register(methodGuardPlugin);
      await v1.register(authPlugin, { keys: opts.keys });
      await v1.register(rateLimitPlugin, { perMinute: opts.rateLimitPerMinute });
      await v1.register(citiesRoutes, { cities: opts.cities });
      await v1.register(observationRoutes, { cities: opts.cities, reads: opts.reads });
      await v1.register(historicalRoutes, { reads: opts.reads, cache });
      await v1.register(strategyRoutes, { reads: opts.reads, cache });
      await v1.register(fusionLockRoutes, { reads: opts.reads, cache });
      await v1.register(openapi.route);
    },
    { prefix: API_PREFIX },
  );
  if (opts.pages) await app.register(pagesPlugin, { ...opts.pages, prefix: ACCOUNT_PREFIX });
  return app;
}
