import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { KeyStore } from '../store/keys.js';
import type { WebhookStore } from '../store/webhooks.js';
import type { Resolver } from '../webhooks/address-guard.js';
import type { Html } from './html.js';
import { type Session, Sessions } from './sessions.js';
import { SignInThrottle } from './sign-in-throttle.js';

export interface PagesOptions {
  keys: KeyStore;
  webhooks: WebhookStore;
  /** The sign-in token; only its hash is kept. */
  adminToken: string;
  /** The server runs with `--allow-private-webhooks`: the same address rules as `webhooks add`. */
  allowPrivateWebhooks: boolean;
  resolve?: Resolver;
  /** A test event was queued: the dispatcher looks now rather than at its next poll. */
  onQueued?: () => void;
  /** The clock of sessions and sign-in tries (tests move it). */
  now?: () => number;
}

export const SESSION_COOKIE = 'svc_session';

const sha256 = (text: string): Buffer => createHash('sha256').update(text).digest();

/** What the pages' routes share: the stores, the sessions, the sign-in throttle and the admin token's hash. */
export class PageContext {
  readonly sessions: Sessions;
  readonly throttle: SignInThrottle;
  private readonly tokenHash: Buffer;

  constructor(readonly opts: PagesOptions) {
    const now = opts.now ?? Date.now;
    this.sessions = new Sessions(now);
    this.throttle = new SignInThrottle(now);
    this.tokenHash = sha256(opts.adminToken);
  }

  /** Constant time: both sides are hashed to 32 bytes first, so neither length nor content leaks through timing. */
  isAdminToken(presented: string): boolean {
    return timingSafeEqual(sha256(presented), this.tokenHash);
  }

  /** The request's live session, from its signed cookie. */
  sessionOf(request: FastifyRequest): Session | undefined {
    const cookie = request.cookies[SESSION_COOKIE];
    if (!cookie) return undefined;
    const unsigned = request.unsignCookie(cookie);
    return unsigned.valid && unsigned.value ? this.sessions.get(unsigned.value) : undefined;
  }
}

export const sendPage = (reply: FastifyReply, page: Html, status = 200): FastifyReply =>
  reply.code(status).type('text/html; charset=utf-8').send(page.text);
