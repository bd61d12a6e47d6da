import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/**
 * Every answer's `Date` header is the world's clock (DESIGN 4 "the monitor's clock"), not the host's: a client keeps
 * the offset of it from its own clock, so its "now" is the service's, at `--speed` and `--start` too. An HTTP date
 * has whole seconds; a world second is the finest a client needs.
 */
export const worldDatePlugin = fp(async (app: FastifyInstance, opts: { now: () => number }) => {
  app.addHook('onSend', async (_request, reply, payload) => {
    reply.header('date', new Date(opts.now()).toUTCString());
    return payload;
  });
});
