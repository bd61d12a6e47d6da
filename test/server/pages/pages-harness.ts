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

/**
 * The v1 app with its account pages over a real store in a temp dir (no world: the pages need none), driven with
 * Fastify's inject and a cookie jar, as one browser would.
 */
export async function startPagesHarness(pages: Partial<PagesOptions> = {}) {
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
  const jar = new Map<string, string>();
  const remember = (response: { cookies: { name: string; value: string; maxAge?: number; expires?: Date }[] }) => {
    for (const c of response.cookies) {
      if (c.value === '' || c.maxAge === 0 || (c.expires && c.expires.getTime() <= Date.now())) jar.delete(c.name);
      else jar.set(c.name, c.value);
    }
  };
  const toPage = (r: Awaited<ReturnType<FastifyInstance['inject']>>): PageResponse => {
    remember(r);
    return { status: r.statusCode, headers: r.headers, body: r.body };
  };
  const harness = {
    app,
    db,
    keys,
    webhooks,
    jar,
    async get(url: string): Promise<PageResponse> {
      return toPage(await app.inject({ method: 'GET', url, cookies: Object.fromEntries(jar) }));
    },
    async post(url: string, form: Record<string, string | string[]>, remoteAddress?: string): Promise<PageResponse> {
      const body = new URLSearchParams();
      for (const [k, v] of Object.entries(form)) for (const one of [v].flat()) body.append(k, one);
      return toPage(
        await app.inject({
          method: 'POST',
          url,
          payload: body.toString(),
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          cookies: Object.fromEntries(jar),
          remoteAddress,
        }),
      );
    },
    /** The CSRF token of the page at `url` (a fresh one each load). */
    async csrf(url: string): Promise<string> {
      const page = await harness.get(url);
      const token = page.body.match(/name="_csrf" value="([^"]+)"/)?.[1];
      if (!token) throw new Error(`no CSRF token on ${url} (status ${page.status})`);
      return token;
    },
    async signIn(): Promise<PageResponse> {
      return harness.post('/account/sign-in', { _csrf: await harness.csrf('/account/'), token: ADMIN_TOKEN });
    },
    async close() {
      await app.close();
      db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return harness;
}
