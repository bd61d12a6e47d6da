import { afterEach, describe, expect, it } from 'vitest';
import { type PageResponse, startPagesHarness } from './pages-harness.js';

type Harness = Awaited<ReturnType<typeof startPagesHarness>>;
let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const shownKey = (page: PageResponse) => page.body.match(/<output id="new-key"[^>]*>([^<]+)<\/output>/)?.[1];
const shownSecret = (page: PageResponse) => page.body.match(/<output id="new-secret"[^>]*>([^<]+)<\/output>/)?.[1];
/** The message beside a field: `<p class="error" id="FIELD-error">`. */
const errorBeside = (page: PageResponse, field: string) =>
  page.body.match(new RegExp(`<p class="error" id="${field}-error">([^<]*)</p>`))?.[1];

describe('account pages over HTTP', () => {
  it('sets a strict CSP, no-store and no CORS header on every page, and labels every field', async () => {
    harness = await startPagesHarness();
    const signIn = await harness.get('/account/');
    expect(signIn.status).toBe(200);
    expect(signIn.headers['content-security-policy']).toBe(
      "default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
    );
    expect(signIn.headers['cache-control']).toBe('no-store');
    expect(signIn.headers['access-control-allow-origin']).toBeUndefined();
    const csrfCookie = String(signIn.headers['set-cookie']);
    expect(csrfCookie).toMatch(/^svc_csrf=[^;]+; Path=\/account; HttpOnly; SameSite=Strict$/);

    const session = await harness.signIn();
    expect(session.status).toBe(303);
    expect(session.headers.location).toBe('/account/keys');
    // 8 h = 28,800 s
    expect(String(session.headers['set-cookie'])).toMatch(
      /^svc_session=[^;]+; Max-Age=28800; Path=\/account; HttpOnly; SameSite=Strict$/,
    );
    for (const url of ['/account/', '/account/keys', '/account/webhooks']) {
      const page = await harness.get(url);
      expect(page.status, url).toBe(200);
      expect(page.body, url).not.toMatch(/<script>|style="|<script[^>]+src="http/);
      const fields = [...page.body.matchAll(/<input (?![^>]*type="hidden")[^>]*id="([^"]+)"/g)].map((m) => m[1]);
      for (const id of fields) expect(page.body, `${url} #${id}`).toContain(`<label for="${id}">`);
    }
    // the API under /api/public/v1 stays GET-only, pages or not
    const post = await harness.app.inject({ method: 'POST', url: '/api/public/v1/cities' });
    expect(post.statusCode).toBe(405);
    expect(post.headers.allow).toBe('GET');
  });

  it('never echoes a wrong token; five wrong tries a minute from one address, then 429 for its wrong ones only', async () => {
    let now = Date.parse('2026-11-24T12:00:00Z');
    harness = await startPagesHarness({ now: () => now });
    const wrong = 'not-the-admin-token-xyz';
    for (let i = 1; i <= 5; i++) {
      const page = await harness.signIn(wrong);
      expect(page.status).toBe(401);
      expect(errorBeside(page, 'token')).toBe(`That is not the admin token (${i} of 5 wrong tries this minute).`);
      expect(page.body).not.toContain(wrong);
      expect(harness.jar.has('svc_session')).toBe(false);
    }
    now += 30_000;
    const blocked = await harness.signIn(wrong);
    expect(blocked.status).toBe(429);
    // the first wrong try was at 12:00:00, so its minute ends at 12:01:00, 30 s after 12:00:30
    expect(blocked.headers['retry-after']).toBe('30');
    expect(blocked.body).not.toContain(wrong);
    expect(harness.jar.has('svc_session')).toBe(false);
    // another address is not held back: its wrong token is judged, and is its first
    const elsewhere = await harness.post(
      '/account/sign-in',
      { _csrf: await harness.csrf('/account/'), token: wrong },
      { remoteAddress: '127.0.0.9' },
    );
    expect(elsewhere.status).toBe(401);
    expect(errorBeside(elsewhere, 'token')).toBe('That is not the admin token (1 of 5 wrong tries this minute).');
    // issue 46: before, the right token from the throttled address was 429 too; now it signs in
    expect((await harness.signIn()).status).toBe(303);
  });

  it('refuses a POST without a session, without a CSRF token, or with one used before: 403, nothing stored', async () => {
    harness = await startPagesHarness();
    const anonymous = await harness.post('/account/keys', { _csrf: await harness.csrf('/account/'), label: 'x' });
    expect(anonymous.status).toBe(403);
    expect((await harness.get('/account/keys')).headers.location).toBe('/account/');

    await harness.signIn();
    const missing = await harness.post('/account/keys', { label: 'no token' });
    expect(missing.status).toBe(403);
    const forged = await harness.post('/account/keys', { _csrf: 'forged-token', label: 'forged' });
    expect(forged.status).toBe(403);
    const token = await harness.csrf('/account/keys');
    expect((await harness.post('/account/keys', { _csrf: token, label: 'once' })).status).toBe(303);
    const replayed = await harness.post('/account/keys', { _csrf: token, label: 'twice' });
    expect(replayed.status).toBe(403);
    expect(harness.keys.list().map((k) => k.label)).toEqual(['once']);

    // a token whose secret cookie is gone (another browser) is refused too
    const fresh = await harness.csrf('/account/keys');
    harness.jar.delete('svc_csrf');
    expect((await harness.post('/account/keys', { _csrf: fresh, label: 'cookieless' })).status).toBe(403);
    expect(harness.keys.list()).toHaveLength(1);
  });

  it('ends a session after 8 hours and at sign-out', async () => {
    let now = Date.parse('2026-11-24T12:00:00Z');
    harness = await startPagesHarness({ now: () => now });
    await harness.signIn();
    const token = await harness.csrf('/account/keys');
    now += 8 * 3600_000; // exactly 8 h later: expired
    const expired = await harness.get('/account/keys');
    expect(expired.status).toBe(303);
    expect(expired.headers.location).toBe('/account/');
    expect((await harness.post('/account/keys', { _csrf: token, label: 'late' })).status).toBe(403);
    expect(harness.keys.list()).toHaveLength(0);

    await harness.signIn();
    const cookie = harness.jar.get('svc_session') as string;
    expect((await harness.post('/account/sign-out', { _csrf: await harness.csrf('/account/keys') })).status).toBe(303);
    harness.jar.set('svc_session', cookie); // the old cookie, kept by someone: the session is over server-side
    expect((await harness.get('/account/keys')).status).toBe(303);
  });

  it('creates a key shown once, which the API takes until it is revoked; bad labels and ids change nothing', async () => {
    harness = await startPagesHarness();
    await harness.signIn();
    const empty = await harness.post('/account/keys', { _csrf: await harness.csrf('/account/keys'), label: '   ' });
    expect(empty.status).toBe(400);
    expect(errorBeside(empty, 'label')).toBe('Label must not be empty.');
    const long = 'L'.repeat(101);
    const overlong = await harness.post('/account/keys', { _csrf: await harness.csrf('/account/keys'), label: long });
    expect(overlong.status).toBe(400);
    expect(errorBeside(overlong, 'label')).toBe('Label must be at most 100 characters.');
    expect(overlong.body).toContain(`value="${long}"`);
    expect(harness.keys.list()).toHaveLength(0);

    await harness.post('/account/keys', { _csrf: await harness.csrf('/account/keys'), label: 'desk <b>' });
    const created = await harness.get('/account/keys');
    const key = shownKey(created) as string;
    expect(key).toMatch(/^svc_[A-Za-z0-9_-]{32}$/);
    expect(created.body).toContain('desk &lt;b&gt;');
    const again = await harness.get('/account/keys');
    expect(shownKey(again)).toBeUndefined();
    expect(again.body).not.toContain(key);
    // the list shows the first 8 characters only
    expect(again.body).toContain(`${key.slice(0, 8)}…`);
    expect(again.body).not.toContain(key.slice(0, 9));

    const cities = () => harness?.app.inject({ url: '/api/public/v1/cities', headers: { 'x-api-key': key } });
    expect((await cities())?.statusCode).toBe(200);
    const [info] = harness.keys.list();
    expect(info?.last_used_at).not.toBeNull();
    const id = info?.id as string;
    const revoke = () => harness?.csrf('/account/keys') as Promise<string>;
    expect((await harness.post(`/account/keys/${id}/revoke`, { _csrf: await revoke() })).status).toBe(303);
    expect((await cities())?.statusCode).toBe(401);
    expect((await harness.get('/account/keys')).body).toContain(`Revoked ${id}`);
    expect((await harness.post(`/account/keys/${id}/revoke`, { _csrf: await revoke() })).status).toBe(404);
    expect((await harness.post('/account/keys/key_0000/revoke', { _csrf: await revoke() })).status).toBe(404);
    expect((await harness.post('/account/keys/nonsense/revoke', { _csrf: await revoke() })).status).toBe(404);
  });

  it('applies the address rules of webhooks add beside the URL field and stores nothing it refuses', async () => {
    harness = await startPagesHarness({ resolve: async () => ['10.1.2.3'] });
    await harness.signIn();
    const add = async (form: Record<string, string | string[]>) =>
      harness?.post('/account/webhooks', {
        _csrf: await harness.csrf('/account/webhooks'),
        ...form,
      }) as Promise<PageResponse>;
    const cases: [Record<string, string | string[]>, string, string][] = [
      [{ url: '' }, 'url', 'URL must not be empty.'],
      [{ url: `https://example.com/${'a'.repeat(2048)}` }, 'url', 'URL must be at most 2048 characters.'],
      [
        { url: 'ftp://example.com/hook' },
        'url',
        'only http and https webhook URLs are accepted (got ftp: for host example.com).',
      ],
      [
        { url: 'http://127.0.0.1:9/hook' },
        'url',
        'webhook host 127.0.0.1 is 127.0.0.1 (loopback); private, loopback and link-local targets are refused.',
      ],
      [
        { url: 'https://hooks.internal.test/x' },
        'url',
        'webhook host hooks.internal.test resolves to 10.1.2.3 (private); private, loopback and link-local targets are refused.',
      ],
      [
        { url: 'https://example.com/hook', events: ['webhook.test', 'weather.nope'] },
        'events',
        'unknown event type weather.nope; known: insurance.pick.created, insurance.addon.created, insurance.pick.killed, edge.trade.entered, edge.trade.exited, webhook.test.',
      ],
    ];
    for (const [form, field, message] of cases) {
      const page = await add(form);
      expect(page.status, JSON.stringify(form).slice(0, 80)).toBe(400);
      expect(errorBeside(page, field)).toBe(message.replaceAll("'", '&#39;'));
      if (typeof form.url === 'string' && form.url.length < 100) expect(page.body).toContain(`value="${form.url}"`);
    }
    expect(harness.webhooks.list()).toEqual([]);
  });

  it('adds a webhook with its secret shown once, queues a test event, enables, removes, and 404s unknown ids', async () => {
    harness = await startPagesHarness({ allowPrivateWebhooks: true });
    await harness.signIn();
    const token = () => harness?.csrf('/account/webhooks') as Promise<string>;
    const added = await harness.post('/account/webhooks', {
      _csrf: await token(),
      url: 'http://127.0.0.1:9/hook',
      events: ['webhook.test', 'insurance.pick.killed'],
    });
    expect(added.status).toBe(303);
    const page = await harness.get('/account/webhooks');
    const secret = shownSecret(page) as string;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    const [hook] = harness.webhooks.list();
    expect(hook?.events).toEqual(['webhook.test', 'insurance.pick.killed']);
    expect(harness.webhooks.get(hook?.id as string)?.secret).toBe(secret);
    expect((await harness.get('/account/webhooks')).body).not.toContain(secret);
    const id = hook?.id as string;

    expect((await harness.post(`/account/webhooks/${id}/test`, { _csrf: await token() })).status).toBe(303);
    const due = harness.webhooks.due(Number.MAX_SAFE_INTEGER, 10);
    expect(due.map((d) => [d.webhook_id, d.event_type])).toEqual([[id, 'webhook.test']]);
    expect((await harness.get('/account/webhooks')).body).toContain(
      `Queued webhook.test ${due[0]?.event_id} for ${id}.`,
    );

    harness.db.prepare("UPDATE webhooks SET status = 'disabled', consecutive_failures = 10 WHERE id = ?").run(id);
    expect((await harness.get('/account/webhooks')).body).toMatch(/<td>disabled<\/td>\n<td>10<\/td>/);
    expect((await harness.post(`/account/webhooks/${id}/enable`, { _csrf: await token() })).status).toBe(303);
    expect(harness.webhooks.get(id)).toMatchObject({ status: 'active', consecutive_failures: 0 });

    for (const verb of ['enable', 'test', 'remove']) {
      expect((await harness.post(`/account/webhooks/wh_000000/${verb}`, { _csrf: await token() })).status).toBe(404);
    }
    expect((await harness.get('/account/webhooks/wh_000000')).status).toBe(404);
    expect((await harness.post(`/account/webhooks/${id}/remove`, { _csrf: await token() })).status).toBe(303);
    expect(harness.webhooks.list()).toEqual([]);
    expect((await harness.get(`/account/webhooks/${id}`)).status).toBe(404);
  });

  it("lists a webhook's attempts on its deliveries page, newest first", async () => {
    harness = await startPagesHarness({ allowPrivateWebhooks: true });
    await harness.signIn();
    const { id } = harness.webhooks.add('http://127.0.0.1:9/hook', null, false);
    harness.webhooks.enqueue(id, 'evt-1', 'webhook.test', { hello: 1 });
    const [delivery] = harness.webhooks.due(Number.MAX_SAFE_INTEGER, 1);
    const at = Date.parse('2026-11-24T12:00:00Z');
    if (!delivery) throw new Error('no delivery queued');
    harness.webhooks.recordAttempt(delivery, {
      attempt: 1,
      deliveryUuid: 'dlv-1',
      statusCode: null,
      error: 'connection refused',
      durationMs: 12.4,
      at,
    });
    const page = await harness.get(`/account/webhooks/${id}`);
    expect(page.status).toBe(200);
    // the first retry comes 1 min later: 12:01
    expect(page.body).toContain(
      '<td>2026-11-24 12:00 UTC</td>\n<td class="mono">evt-1</td>\n<td class="mono">dlv-1</td>\n<td>1</td>\n<td>connection refused</td>\n<td>12 ms</td>\n<td>2026-11-24 12:01 UTC</td>',
    );
  });
});
