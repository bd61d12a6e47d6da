import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { KeyStore } from '../../store/keys.js';
import { OPENAPI_URL } from '../openapi/document.js';

declare module 'fastify' {
  interface FastifyRequest {
    apiKeyId?: string;
  }
}

/** The key from `X-API-Key`, `Authorization: Bearer`, or `api_key=`, in that order (spec section 5). */
function presentedKey(request: FastifyRequest): string | undefined {
  const header = request.headers['x-api-key'];
  if (typeof header === 'string' && header !== '') return header;
  const authorization = request.headers.authorization;
  const bearer = authorization?.match(/^Bearer\s+(\S+)\s*$/i)?.[1];
  if (bearer) return bearer;
  const query = (request.query as Record<string, unknown> | undefined)?.api_key;
  return typeof query === 'string' && query !== '' ? query : undefined;
}

/**
 * The OpenAPI document's path, bare or with a query: a request for it reaches that route and no other. Read from the
 * URL, not `request.routeOptions` (a getter that builds an object per request, on every request's path).
 */
function asksForDocument(url: string): boolean {
  return url.startsWith(OPENAPI_URL) && (url.length === OPENAPI_URL.length || url[OPENAPI_URL.length] === '?');
}

/**
 * 401 unless an active key is presented. The key itself is never echoed or logged. The OpenAPI document alone
 * answers without one, as a health check would: it describes the interface and holds no data.
 */
export const authPlugin = fp(async (app: FastifyInstance, opts: { keys: KeyStore }) => {
  // callback-style hook: no promise per request on the hot path
  app.addHook('onRequest', (request, reply, done) => {
    if (request.method === 'OPTIONS' || asksForDocument(request.url)) return done();
    const key = presentedKey(request);
    if (key === undefined) {
      reply.code(401).send({ error: 'missing API key: send X-API-Key, Authorization: Bearer, or api_key=' });
      return;
    }
    const id = opts.keys.verify(key);
    if (id === undefined) {
      reply.code(401).send({ error: 'invalid API key' });
      return;
    }
    request.apiKeyId = id;
    done();
  });
});
