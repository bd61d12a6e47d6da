import cors from '@fastify/cors';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/** Any origin may read; preflight allows GET and the two ways of sending a key in a header, nothing else. */
export const corsPlugin = fp(async (app: FastifyInstance) => {
  await app.register(cors, {
    origin: '*',
    methods: ['GET'],
    allowedHeaders: ['X-API-Key', 'Authorization'],
    maxAge: 600,
  });
});
