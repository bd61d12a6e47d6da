import type { FastifyInstance } from 'fastify';
import { SignInForm } from '../../../contract/account-forms.js';
import { checkForm } from '../form-check.js';
import { type PageContext, SESSION_COOKIE, sendPage } from '../page-context.js';
import { SESSION_MS } from '../sessions.js';
import { SIGN_IN_TRIES } from '../sign-in-throttle.js';
import { signInView } from '../views/sign-in-view.js';
import { csrfChecked, signedIn } from './guards.js';

/** `/account/`: sign in with the admin token, sign out. */
export async function accountRoutes(app: FastifyInstance, { ctx }: { ctx: PageContext }): Promise<void> {
  app.get('/', (request, reply) => {
    const session = ctx.sessionOf(request);
    return sendPage(reply, signInView({ csrf: reply.generateCsrf(), signedIn: session !== undefined }));
  });

  app.post('/sign-in', { preHandler: csrfChecked(app, ctx) }, (request, reply) => {
    const address = request.ip;
    const form = checkForm<SignInForm>(SignInForm, request.body);
    // judged first, in constant time, whatever the address's count: only wrong tokens are throttled, so the right
    // one signs in even after others at the same address (on loopback, anyone on the machine) typed five wrong ones
    if (!ctx.isAdminToken(form.ok ? form.value.token : '')) {
      const again = (error: string, status: number) =>
        sendPage(reply, signInView({ csrf: reply.generateCsrf(), error }), status);
      const wait = ctx.throttle.retryAfterS(address);
      if (wait > 0) {
        // not counted: the address's minute ends when Retry-After says, however many more it tries
        reply.header('retry-after', String(wait));
        return again(
          `Too many wrong tokens from your address (${SIGN_IN_TRIES.max} a minute); try again in ${wait} s.`,
          429,
        );
      }
      const count = ctx.throttle.fail(address);
      // the token typed is never put back in the field or in any message
      return again(`That is not the admin token (${count} of ${SIGN_IN_TRIES.max} wrong tries this minute).`, 401);
    }
    ctx.throttle.forget(address);
    const session = ctx.sessions.create();
    reply.setCookie(SESSION_COOKIE, session.id, {
      path: '/account',
      httpOnly: true,
      sameSite: 'strict',
      signed: true,
      maxAge: SESSION_MS / 1000,
    });
    return reply.redirect('/account/keys', 303);
  });

  app.post('/sign-out', { onRequest: signedIn(ctx), preHandler: csrfChecked(app, ctx) }, (request, reply) => {
    if (request.pageSession) ctx.sessions.end(request.pageSession.id);
    reply.clearCookie(SESSION_COOKIE, { path: '/account' });
    return reply.redirect('/account/', 303);
  });
}
