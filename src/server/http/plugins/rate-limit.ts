import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { HttpError } from '../http-error.js';

/** A budget per key a minute; past it, 429 with `Retry-After` in seconds. Runs after auth, so keys are known. */
export const rateLimitPlugin = fp(async (app: FastifyInstance, opts: { perMinute: number }) => {
  await app.register(rateLimit, {
    max: opts.perMinute,
    timeWindow: 60_000,
    hook: 'preHandler',
    keyGenerator: (request) => request.apiKeyId ?? request.ip,
    addHeadersOnExceeding: { 'x-ratelimit-limit': false, 'x-ratelimit-remaining': false, 'x-ratelimit-reset': false },
    errorResponseBuilder: (_request, context) =>
      new HttpError(429, `rate limit of ${context.max} requests a minute exceeded; retry after ${context.after}`),
  });
});
