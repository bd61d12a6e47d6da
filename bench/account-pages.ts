import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { openStore } from '../src/server/store/open-store.js';
import { WebhookStore } from '../src/server/store/webhooks.js';
import { type Latency, meanP50, ratio, sequentialLatency, spawnReady, writeResult } from './lib.js';
import { BENCH_KEY, prepareWorld } from './prepare-world.js';

const WEBHOOKS = 100;
const DELIVERIES = 10_000;

/** 100 webhooks, 100 deliveries each with one attempt logged, as a busy account would have them. */
function fillWebhooks(dir: string): void {
  const db = openStore(dir);
  const store = new WebhookStore(db);
  db.transaction(() => {
    for (let w = 0; w < WEBHOOKS; w++) {
      const { id } = store.add(`https://hooks.example.com/receiver-${w}`, null, false);
      for (let d = 0; d < DELIVERIES / WEBHOOKS; d++) store.enqueue(id, `evt-${w}-${d}`, 'webhook.test', { n: d });
    }
  })();
  const at = Date.parse('2026-11-21T12:00:00Z');
  store.recordAttempts(
    store.due(Number.MAX_SAFE_INTEGER, DELIVERIES).map((delivery, i) => ({
      delivery,
      outcome: { attempt: 1, deliveryUuid: `dlv-${i}`, statusCode: 200, error: null, durationMs: 15, at },
    })),
  );
  db.close();
}

/** Signs in as a browser would: the sign-in page's CSRF token and cookie, then the form; returns the cookies. */
async function signIn(accountUrl: string, token: string): Promise<string> {
  const page = await fetch(accountUrl);
  const csrfCookie = (page.headers.get('set-cookie') ?? '').split(';')[0] as string;
  const csrf = (await page.text()).match(/name="_csrf" value="([^"]+)"/)?.[1] ?? '';
  const signedIn = await fetch(`${accountUrl}sign-in`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: csrfCookie },
    body: new URLSearchParams({ _csrf: csrf, token }).toString(),
  });
  if (signedIn.status !== 303) throw new Error(`sign-in answered ${signedIn.status}`);
  const session = (signedIn.headers.get('set-cookie') ?? '').split(';')[0] as string;
  return `${csrfCookie}; ${session}`;
}

/**
 * Time to first byte of `/account/webhooks` with 100 webhooks and 10,000 deliveries in the store, against
 * `/api/public/v1/cities` of the same server in the same run (interleaved rounds, so load drift hits both).
 */
export async function benchAccountPages(requests = 1000): Promise<object> {
  const dir = prepareWorld();
  fillWebhooks(dir);
  const service = await spawnReady('service-process.mjs', [dir, BENCH_KEY]);
  try {
    const accountUrl = service.url.replace('/api/public/v1', '/account/');
    const cookie = await signIn(accountUrl, readFileSync(join(dir, 'admin-token'), 'utf8').trim());
    const pageUrl = `${accountUrl}webhooks`;
    const page = await (await fetch(pageUrl, { headers: { cookie } })).text();
    const listed = page.match(/<tr id="wh_/g)?.length ?? 0;
    if (listed !== WEBHOOKS) throw new Error(`the page lists ${listed} webhooks, not ${WEBHOOKS}`);
    const api = { 'x-api-key': BENCH_KEY };
    // time to the response's headers (Fastify writes a page at once, so its first byte), 20 requests to warm up
    const ttfb = (url: string, headers: Record<string, string>): Promise<Latency> =>
      sequentialLatency(url, headers, requests / 2, { timeTo: 'first-byte', warmup: 20 });
    const pages1 = await ttfb(pageUrl, { cookie });
    const cities1 = await ttfb(`${service.url}/cities`, api);
    const pages2 = await ttfb(pageUrl, { cookie });
    const cities2 = await ttfb(`${service.url}/cities`, api);
    const result = {
      what: 'time to first byte of /account/webhooks (100 webhooks, 10,000 deliveries) as a ratio to /cities',
      webhooks: WEBHOOKS,
      deliveries: DELIVERIES,
      page_bytes: Buffer.byteLength(page),
      account_webhooks: [pages1, pages2],
      cities: [cities1, cities2],
      account_webhooks_p50_ms: meanP50(pages1, pages2),
      cities_p50_ms: meanP50(cities1, cities2),
      ratio_p50: ratio(meanP50(pages1, pages2), meanP50(cities1, cities2)),
    };
    writeResult('account-pages', result);
    return result;
  } finally {
    await service.stop();
  }
}
