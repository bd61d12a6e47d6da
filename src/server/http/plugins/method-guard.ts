import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/** Methods the v1 routes answer 405 to (OPTIONS belongs to CORS preflight). */
export const NOT_ALLOWED_METHODS = ['HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/** The interface is read-only: any method but GET on a known route is a 405 with `Allow: GET`, before auth. */
export const methodGuardPlugin = fp(async (app: FastifyInstance) => {
  // callback-style hook: no promise per request on the hot path
  app.addHook('onRequest', (request, reply, done) => {
    if (request.method === 'GET' || request.method === 'OPTIONS') return done();
    reply
      .code(405)
      .header('allow', 'GET')
      .send({ error: `method ${request.method} not allowed; use GET` });
  });
});
