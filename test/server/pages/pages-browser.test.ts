import { createHmac } from 'node:crypto';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReceiver } from '../../helpers/receiver.js';
import { startTestService, TEST_KEY, type TestService } from '../../helpers/service.js';
import { launchBrowser } from './browser.js';

let browser: Browser;
let server: TestService;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
/** Screenshots of every page, kept for inspection after the run. */
const shots = mkdtempSync(join(tmpdir(), 'svc-pages-screens-'));
const cspViolations: string[] = [];

beforeAll(async () => {
  // no --admin-token: the server makes one on first start and keeps it in DIR/admin-token
  server = await startTestService({ allowPrivateWebhooks: true });
  receiver = await startReceiver();
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await receiver?.close();
  await server?.close();
});

async function newPage(width = 1100): Promise<Page> {
  const page = await browser.newPage({ viewport: { width, height: 900 } });
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) cspViolations.push(message.text());
  });
  return page;
}

/** A page signed in with the token the server keeps in its data dir, on the keys page. */
async function signedInPage(): Promise<Page> {
  const page = await newPage();
  await page.goto(server.service.accountUrl);
  await page.getByLabel('Admin token').fill(readFileSync(server.service.adminTokenFile as string, 'utf8').trim());
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.waitForURL(/\/account\/keys$/);
  return page;
}

const shoot = (page: Page, name: string) => page.screenshot({ path: join(shots, `${name}.png`), fullPage: true });
const api = (key: string) => fetch(`${server.baseUrl}/cities`, { headers: { 'x-api-key': key } });

describe('account pages in Chromium', () => {
  it('signs in, creates a key shown once that the API takes, and revokes it', async () => {
    const tokenFile = server.service.adminTokenFile as string;
    expect(tokenFile).toBe(join(server.dataDir, 'admin-token'));
    expect(statSync(tokenFile).mode & 0o777).toBe(0o600);
    const adminToken = readFileSync(tokenFile, 'utf8').trim();
    expect(server.service.accountUrl).toBe(server.baseUrl.replace('/api/public/v1', '/account/'));

    const page = await newPage();
    await page.goto(server.service.accountUrl);
    await shoot(page, '1-sign-in');
    await page.getByLabel('Admin token').fill(adminToken);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL(/\/account\/keys$/);

    await page.getByLabel('Label').fill('browser desk');
    await page.getByRole('button', { name: 'Create key', exact: true }).click();
    const key = (await page.locator('output#new-key').textContent())?.trim() as string;
    expect(key).toMatch(/^svc_[A-Za-z0-9_-]{32}$/);
    // the progressive copy button, from the same-origin script
    await expect.poll(() => page.getByRole('button', { name: 'Copy', exact: true }).count()).toBe(1);
    await shoot(page, '2-keys-created');
    expect((await api(key)).status).toBe(200);

    await page.reload();
    expect(await page.locator('output#new-key').count()).toBe(0);
    expect(await page.content()).not.toContain(key);
    await shoot(page, '3-keys-reloaded');

    const row = page.locator('tr', { hasText: 'browser desk' });
    await row.getByText('Revoke…').click();
    await row.getByRole('button', { name: 'Revoke', exact: true }).click();
    await page.getByText(/^Revoked key_/).waitFor();
    expect((await api(key)).status).toBe(401);
    // the test key the helper made is still active
    expect((await api(TEST_KEY)).status).toBe(200);
    await shoot(page, '4-keys-revoked');

    // a real form with its CSRF token taken out: 403, nothing stored
    const before = (await page.locator('tbody tr').count()) as number;
    await page.getByLabel('Label').fill('no csrf');
    await page
      .locator('form[action="/account/keys"] input[name="_csrf"]')
      .evaluate((input) => (input as unknown as { remove(): void }).remove());
    const [refused] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/account/keys') && r.request().method() === 'POST'),
      page.getByRole('button', { name: 'Create key', exact: true }).click(),
    ]);
    expect(refused.status()).toBe(403);
    await shoot(page, '5-forbidden');
    await page.goto(`${server.service.accountUrl}keys`);
    expect(await page.locator('tbody tr').count()).toBe(before);
    expect(await page.content()).not.toContain('no csrf');
    // the same without a form at all, with the session cookie: 403 too
    const bare = await page.context().request.post(`${server.service.accountUrl}keys`, { form: { label: 'bare' } });
    expect(bare.status()).toBe(403);
    await page.close();
  });

  it('adds a webhook, sends a test event signed with the secret the page showed, and lists the attempt', async () => {
    const page = await signedInPage();
    await page.getByRole('link', { name: 'Webhooks' }).click();

    await page.getByLabel('Receiver URL').fill(receiver.url);
    await page.getByLabel('webhook.test').check();
    await page.getByRole('button', { name: 'Add webhook', exact: true }).click();
    const secret = (await page.locator('output#new-secret').textContent())?.trim() as string;
    expect(secret).toMatch(/^whsec_/);
    await shoot(page, '6-webhooks-added');
    await page.reload();
    expect(await page.locator('output#new-secret').count()).toBe(0);
    expect(await page.content()).not.toContain(secret);

    const row = page.locator('tr', { hasText: receiver.url });
    await row.getByRole('button', { name: 'Send test event', exact: true }).click();
    const [received] = await receiver.waitFor(1);
    const body = received?.body as Buffer;
    expect(received?.headers['x-svc-event']).toBe('webhook.test');
    // spec 6.3: sha256=<hex of HMAC-SHA256 over the raw bytes with the secret>
    const expected = `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
    expect(received?.headers['x-svc-signature']).toBe(expected);
    const event = JSON.parse(body.toString('utf8'));
    expect(event.event_type).toBe('webhook.test');
    expect(event.event_id).toBe(received?.headers['x-svc-event-id']);
    await shoot(page, '7-webhooks-test-sent');

    await row.getByRole('link', { name: receiver.url }).click();
    const deliveryId = received?.headers['x-svc-delivery'] as string;
    await expect
      .poll(async () => {
        await page.reload();
        return page.locator('tbody tr').count();
      })
      .toBe(1);
    const cells = await page.locator('tbody tr td').allTextContents();
    expect(cells.slice(1, 5)).toEqual([event.event_id, deliveryId, '1', '200']);
    expect(cells[6]).toBe('—');
    await shoot(page, '8-deliveries');

    // a phone's width: nothing wider than the screen (tables scroll inside their box)
    await page.setViewportSize({ width: 390, height: 844 });
    for (const path of ['webhooks', 'keys']) {
      await page.goto(`${server.service.accountUrl}${path}`);
      expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
      await shoot(page, `9-phone-${path}`);
    }
    // Remove asks first (a disclosure), then deletes the webhook
    await page.setViewportSize({ width: 1100, height: 900 });
    await page.goto(`${server.service.accountUrl}webhooks`);
    const listed = page.locator('tr', { hasText: receiver.url });
    await listed.getByText('Remove…').click();
    await listed.getByRole('button', { name: 'Remove', exact: true }).click();
    await page.getByText(/^Removed wh_/).waitFor();
    expect(await page.locator('tr', { hasText: receiver.url }).count()).toBe(0);
    expect(cspViolations).toEqual([]);
    await page.close();
  });

  it('refuses a form another site on this machine posts through Chromium, even with a valid CSRF token', async () => {
    const page = await signedInPage();
    const rows = await page.locator('tbody tr').count();
    // as if the token had leaked: the other site's form carries a valid one
    const csrf = await page.locator('form[action="/account/keys"] input[name="_csrf"]').inputValue();
    // another port on 127.0.0.1 is the same site to the browser, so the session cookie goes along with its form
    const elsewhere = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html' }).end(
        `<form method="post" action="${server.service.accountUrl}keys"><input name="_csrf" value="${csrf}">
<input name="label" value="from elsewhere"><button type="submit">Go</button></form>`,
      );
    });
    await new Promise<void>((resolve) => elsewhere.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(elsewhere.address() as AddressInfo).port}`;
    try {
      await page.goto(`${origin}/`);
      const [refused] = await Promise.all([
        page.waitForResponse((r) => r.url().endsWith('/account/keys') && r.request().method() === 'POST'),
        page.getByRole('button', { name: 'Go', exact: true }).click(),
      ]);
      expect(refused.status()).toBe(403);
      const sent = await refused.request().allHeaders();
      expect(sent.origin).toBe(origin);
      expect(sent.cookie).toMatch(/svc_session=/);
      await page.getByText(`This form was posted from Origin ${origin}, not from these pages`).waitFor();
    } finally {
      await new Promise((resolve) => elsewhere.close(resolve));
    }
    await page.goto(`${server.service.accountUrl}keys`);
    expect(await page.locator('tbody tr').count()).toBe(rows);
    expect(await page.content()).not.toContain('from elsewhere');
    await page.close();
  });

  it('answers 429 after five wrong tokens from one address in a minute', async () => {
    const page = await newPage();
    await page.goto(server.service.accountUrl);
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      await page.getByLabel('Admin token').fill(`wrong-${i}`);
      const [response] = await Promise.all([
        page.waitForResponse((r) => r.url().endsWith('/account/sign-in')),
        page.getByRole('button', { name: 'Sign in', exact: true }).click(),
      ]);
      statuses.push(response.status());
      await page.waitForLoadState();
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
    await page.getByText(/Too many wrong tokens/).waitFor();
    await shoot(page, '10-sign-in-429');
    await page.close();
  });
});
