import type { FastifyInstance, FastifyReply, FastifyRequest, preHandlerHookHandler } from 'fastify';
import { forbiddenPage, messagePage } from '../forbidden-page.js';
import { notFromThesePages } from '../form-origin.js';
import { type PageContext, sendPage } from '../page-context.js';
import type { Session } from '../sessions.js';

declare module 'fastify' {
  interface FastifyRequest {
    pageSession?: Session;
  }
}

/**
 * Signed-in pages: a GET without a live session goes to the sign-in page; a POST is 403 and changes nothing.
 * Runs before the body is read.
 */
export const signedIn =
  (ctx: PageContext) =>
  (request: FastifyRequest, reply: FastifyReply, done: () => void): void => {
    const session = ctx.sessionOf(request);
    if (session) {
      request.pageSession = session;
      done();
      return;
    }
    if (request.method === 'GET') {
      reply.redirect('/account/', 303);
      return;
    }
    sendPage(reply, forbiddenPage(), 403);
  };

/**
 * Every POST, before its body is read or its session looked up: posted from these pages' own origin (form-origin.ts),
 * else 403 with what it said it came from, and nothing changes.
 */
export const postedHere = (request: FastifyRequest, reply: FastifyReply, done: () => void): void => {
  const problem = request.method === 'POST' ? notFromThesePages(request) : undefined;
  if (problem === undefined) {
    done();
    return;
  }
  sendPage(reply, messagePage('Forbidden', `${problem} Nothing was changed.`), 403);
};

/** Every POST: a valid CSRF token (@fastify/csrf-protection) that was not used before. */
export function csrfChecked(app: FastifyInstance, ctx: PageContext): preHandlerHookHandler[] {
  const once: preHandlerHookHandler = (request, reply, done) => {
    const token = (request.body as { _csrf?: unknown } | undefined)?._csrf;
    if (typeof token === 'string' && ctx.sessions.spendToken(token)) return done();
    sendPage(reply, forbiddenPage(), 403);
  };
  return [app.csrfProtection as preHandlerHookHandler, once];
}

/** The session's one-time message and value, taken (so a reload shows neither). */
export function takeFlash(session: Session): NonNullable<Session['flash']> {
  const flash = session.flash ?? {};
  session.flash = undefined;
  return flash;
}
