import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../../src/server/http/app.js';
import type { PagesOptions } from '../../../src/server/pages/pages-plugin.js';
import { ApiReads } from '../../../src/server/store/api-reads.js';
import { KeyStore } from '../../../src/server/store/keys.js';
import { type Db, openStore } from '../../../src/server/store/open-store.js';
import { WebhookStore } from '../../../src/server/store/webhooks.js';
import { loadCities, publicCity } from '../../../src/server/world/cities.js';

export const ADMIN_TOKEN = 'admin-token-for-tests-0123';

export interface PageResponse {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: string;
}

interface Sent extends PageResponse {
  cookies: { name: string; value: string; maxAge?: number; expires?: Date }[];
}
type Send = (
  method: 'GET' | 'POST',
  url: string,
  headers: Record<string, string>,
  payload?: string,
  remoteAddress?: string,
) => Promise<Sent>;

/** What a form post says about where it came from; `undefined` leaves the header out. */
export interface PostedFrom {
  origin?: string | undefined;
  referer?: string;
  remoteAddress?: string;
}

/** The cookies a fetch answer sets, as light-my-request parses them for inject. */
const setCookies = (headers: Headers): Sent['cookies'] =>
  headers.getSetCookie().map((line) => {
    const [pair = '', ...attributes] = line.split(';').map((part) => part.trim());
    const at = pair.indexOf('=');
    const attribute = (name: string) =>
      attributes.find((a) => a.toLowerCase().startsWith(`${name}=`))?.slice(name.length + 1);
    const maxAge = attribute('max-age');
    const expires = attribute('expires');
    return {
      name: pair.slice(0, at),
      value: pair.slice(at + 1),
      ...(maxAge === undefined ? {} : { maxAge: Number(maxAge) }),
      ...(expires === undefined ? {} : { expires: new Date(expires) }),
    };
  });

/**
 * The v1 app with its account pages over a real store in a temp dir (no world: the pages need none), driven as one
 * browser would, with a cookie jar and the pages' own `Origin` on every form: through Fastify's inject, or with
 * `loopback`, over HTTP (fetch) to a real listener on 127.0.0.1.
 */
export async function startPagesHarness(pages: Partial<PagesOptions> = {}, { loopback = false } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'svc-pages-'));
  const db: Db = openStore(dir);
  const keys = new KeyStore(db);
  const webhooks = new WebhookStore(db);
  const app: FastifyInstance = await buildApp({
    cities: loadCities().map(publicCity),
    reads: new ApiReads(db),
    keys,
    rateLimitPerMinute: 1_000_000,
    logLevel: 'silent',
    pages: { keys, webhooks, adminToken: ADMIN_TOKEN, allowPrivateWebhooks: false, ...pages },
  });
  // inject sends `Host: localhost:80`, a browser the address it opened
  const origin = loopback ? await app.listen({ host: '127.0.0.1', port: 0 }) : 'http://localhost:80';
  const send: Send = loopback
    ? async (method, url, headers, payload) => {
        const r = await fetch(`${origin}${url}`, { method, headers, body: payload, redirect: 'manual' });
        const body = await r.text();
        return { status: r.status, headers: Object.fromEntries(r.headers), body, cookies: setCookies(r.headers) };
      }
    : async (method, url, headers, payload, remoteAddress) => {
        const r = await app.inject({ method, url, headers, payload, remoteAddress });
        return { status: r.statusCode, headers: r.headers, body: r.body, cookies: r.cookies };
      };
  const jar = new Map<string, string>();
  const cookie = () => [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
  const visit = async (...request: Parameters<Send>): Promise<PageResponse> => {
    const response = await send(...request);
    for (const c of response.cookies) {
      if (c.value === '' || c.maxAge === 0 || (c.expires && c.expires.getTime() <= Date.now())) jar.delete(c.name);
      else jar.set(c.name, c.value);
    }
    return { status: response.status, headers: response.headers, body: response.body };
  };
  const harness = {
    app,
    db,
    keys,
    webhooks,
    jar,
    /** scheme://host:port the pages are reached at. */
    origin,
    async get(url: string): Promise<PageResponse> {
      return visit('GET', url, jar.size ? { cookie: cookie() } : {});
    },
    async post(url: string, form: Record<string, string | string[]>, from: PostedFrom = {}): Promise<PageResponse> {
      const body = new URLSearchParams();
      for (const [k, v] of Object.entries(form)) for (const one of [v].flat()) body.append(k, one);
      const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
      if (jar.size) headers.cookie = cookie();
      const said = 'origin' in from ? from.origin : origin;
      if (said !== undefined) headers.origin = said;
      if (from.referer !== undefined) headers.referer = from.referer;
      return visit('POST', url, headers, body.toString(), from.remoteAddress);
    },
    /** The CSRF token of the page at `url` (a fresh one each load). */
    async csrf(url: string): Promise<string> {
      const page = await harness.get(url);
      const token = page.body.match(/name="_csrf" value="([^"]+)"/)?.[1];
      if (!token) throw new Error(`no CSRF token on ${url} (status ${page.status})`);
      return token;
    },
    async signIn(token = ADMIN_TOKEN): Promise<PageResponse> {
      return harness.post('/account/sign-in', { _csrf: await harness.csrf('/account/'), token });
    },
    async close() {
      await app.close();
      db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return harness;
}
