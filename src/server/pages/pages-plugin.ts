import { randomBytes } from 'node:crypto';
import cookie from '@fastify/cookie';
import csrf from '@fastify/csrf-protection';
import formbody from '@fastify/formbody';
import type { FastifyError, FastifyInstance } from 'fastify';
import { forbiddenPage, messagePage } from './forbidden-page.js';
import { PageContext, type PagesOptions, sendPage } from './page-context.js';
import { accountRoutes } from './routes/account-routes.js';
import { postedHere } from './routes/guards.js';
import { keyRoutes } from './routes/key-routes.js';
import { webhookRoutes } from './routes/webhook-routes.js';
import { SESSION_MS } from './sessions.js';
import { COPY_JS, PAGES_CSS } from './static-files.js';

export type { PagesOptions } from './page-context.js';

/** Nothing from another origin, nothing inline, no framing, forms post here only. */
const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "style-src 'self'",
  "script-src 'self'",
  "img-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

/**
 * The account pages (DESIGN 7), registered under `/account`: server-rendered HTML over the same store functions as
 * `server keys` and `server webhooks`. Form bodies, cookies and tokens are never logged (request logging is off and
 * the error handler logs the error alone).
 */
export async function pagesPlugin(app: FastifyInstance, opts: PagesOptions): Promise<void> {
  const ctx = new PageContext(opts);
  // forms only: a JSON body would need a preflight cross-site, but there is no reason to take one at all
  app.removeContentTypeParser('application/json');
  await app.register(formbody, { bodyLimit: 16_384 });
  // signed cookies: a secret of this process, so a restart signs everyone out (sessions are in memory anyway)
  await app.register(cookie, { secret: randomBytes(32).toString('base64url') });
  await app.register(csrf, {
    cookieKey: 'svc_csrf',
    cookieOpts: { path: '/account', sameSite: 'strict', httpOnly: true, signed: true },
    csrfOpts: { validity: SESSION_MS },
    logLevel: 'debug',
  });

  app.addHook('onSend', (_request, reply, payload, done) => {
    reply.header('content-security-policy', CONTENT_SECURITY_POLICY);
    reply.header('x-content-type-options', 'nosniff');
    // the address of a page goes to no other site, and the pages' own forms carry their real Origin (under
    // `no-referrer` a browser sends `Origin: null`, which postedHere refuses)
    reply.header('referrer-policy', 'same-origin');
    reply.header('x-frame-options', 'DENY');
    // a page that showed a key or a secret must not come back from the cache (back button, reload)
    reply.header('cache-control', 'no-store');
    // the API's `Access-Control-Allow-Origin: *` is for the API; no other origin reads these pages
    reply.removeHeader('access-control-allow-origin');
    done(null, payload);
  });

  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error.code === 'FST_CSRF_MISSING_SECRET' || error.code === 'FST_CSRF_INVALID_TOKEN') {
      return sendPage(reply, forbiddenPage(), 403);
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      return sendPage(reply, messagePage('Bad request', 'The request could not be read.'), status);
    }
    request.log.error({ err: error, route: request.routeOptions.url }, 'account page failed');
    return sendPage(reply, messagePage('Something went wrong', 'The page could not be made; see the server log.'), 500);
  });
  app.setNotFoundHandler((_request, reply) =>
    sendPage(reply, messagePage('Not found', 'There is no such page, key or webhook (or it is gone).'), 404),
  );

  app.get('/pages.css', (_request, reply) => reply.type('text/css; charset=utf-8').send(PAGES_CSS));
  app.get('/copy.js', (_request, reply) => reply.type('text/javascript; charset=utf-8').send(COPY_JS));

  app.addHook('onRequest', postedHere);
  await app.register(accountRoutes, { ctx });
  await app.register(keyRoutes, { ctx });
  await app.register(webhookRoutes, { ctx });
}
