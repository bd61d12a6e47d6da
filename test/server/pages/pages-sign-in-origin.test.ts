import { afterEach, describe, expect, it } from 'vitest';
import { type PageResponse, startPagesHarness } from './pages-harness.js';

type Harness = Awaited<ReturnType<typeof startPagesHarness>>;
const at = (time: string) => Date.parse(`2026-11-24T${time}Z`);
const listening: Harness[] = [];
afterEach(async () => {
  for (const pages of listening.splice(0)) await pages.close();
});

/** A real listener on 127.0.0.1 spoken to with fetch, its pages' clock in the test's hands. */
async function overLoopback(): Promise<{ pages: Harness; clock: { now: number } }> {
  const clock = { now: at('12:00:00') };
  const pages = await startPagesHarness({ now: () => clock.now }, { loopback: true });
  listening.push(pages);
  return { pages, clock };
}

const WRONG = 'not-the-admin-token-xyz';
const errorOf = (page: PageResponse) => page.body.match(/<p class="error" id="token-error">([^<]*)<\/p>/)?.[1];
/** The text of a message page's first paragraph (the 403 for a form from elsewhere). */
const messageOf = (page: PageResponse) => page.body.match(/<main[^>]*>[\s\S]*?<p>([^<]*)<\/p>/)?.[1];

/** Five wrong tokens, a second apart: 12:00:00 to 12:00:04. */
async function fiveWrong(pages: Harness, clock: { now: number }): Promise<void> {
  for (let i = 1; i <= 5; i++) {
    clock.now = at(`12:00:0${i - 1}`);
    const page = await pages.signIn(WRONG);
    expect(page.status).toBe(401);
    expect(errorOf(page)).toBe(`That is not the admin token (${i} of 5 wrong tries this minute).`);
  }
}

async function expectSignedIn(pages: Harness, page: PageResponse): Promise<void> {
  expect(page.status).toBe(303);
  expect(page.headers.location).toBe('/account/keys');
  expect(String(page.headers['set-cookie'])).toMatch(/^svc_session=[^;]+; Max-Age=28800; Path=\/account;/);
  const keys = await pages.get('/account/keys');
  expect(keys.status).toBe(200);
  expect(keys.body).toContain('<button type="submit" class="primary">Create key</button>');
}

describe('sign-in throttle over loopback: wrong tokens are throttled, the right one never', () => {
  it('signs in with the right token after five wrong ones from the same address', async () => {
    const { pages, clock } = await overLoopback();
    expect(pages.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    await fiveWrong(pages, clock);
    expect(pages.jar.has('svc_session')).toBe(false);
    await expectSignedIn(pages, await pages.signIn());
  });

  it('answers the sixth wrong token in a minute 429 with Retry-After, and judges a wrong one again after it', async () => {
    const { pages, clock } = await overLoopback();
    await fiveWrong(pages, clock);
    clock.now = at('12:00:20');
    const sixth = await pages.signIn(WRONG);
    expect(sixth.status).toBe(429);
    // the first wrong one was at 12:00:00: its minute ends at 12:01:00, 40 s after 12:00:20
    expect(sixth.headers['retry-after']).toBe('40');
    expect(errorOf(sixth)).toBe('Too many wrong tokens from your address (5 a minute); try again in 40 s.');
    expect(sixth.body).not.toContain(WRONG);
    // a 429 is not counted: at 12:00:59.999 the first wrong one's minute is not over (1 ms left, 1 s rounded up)
    clock.now = at('12:00:59.999');
    const last = await pages.signIn(WRONG);
    expect([last.status, last.headers['retry-after']]).toEqual([429, '1']);
    // 12:01:00: the first wrong one (12:00:00) has left the minute, the four of 12:00:01-04 are in it: this is the 5th
    clock.now = at('12:01:00');
    const judged = await pages.signIn(WRONG);
    expect(judged.status).toBe(401);
    expect(errorOf(judged)).toBe('That is not the admin token (5 of 5 wrong tries this minute).');
    expect(pages.jar.has('svc_session')).toBe(false);
  });

  it('signs in with the right token once the limit is reached, and the count starts over', async () => {
    const { pages, clock } = await overLoopback();
    await fiveWrong(pages, clock);
    expect((await pages.signIn(WRONG)).status).toBe(429);
    await expectSignedIn(pages, await pages.signIn());
    // the right token cleared the address's wrong ones: the next wrong one is the first again
    const after = await pages.signIn(WRONG);
    expect(after.status).toBe(401);
    expect(errorOf(after)).toBe('That is not the admin token (1 of 5 wrong tries this minute).');
  });
});

describe('form posts over loopback: from the pages’ own origin only, beside the CSRF token', () => {
  it('refuses a create-key form from a foreign Origin with 403 and creates nothing; the same from here works', async () => {
    const { pages } = await overLoopback();
    await pages.signIn();
    const page = await pages.get('/account/keys');
    expect(page.headers['referrer-policy']).toBe('same-origin');
    const token = await pages.csrf('/account/keys');
    const evil = await pages.post('/account/keys', { _csrf: token, label: 'evil' }, { origin: 'http://evil.example' });
    expect(evil.status).toBe(403);
    expect(messageOf(evil)).toBe(
      `This form was posted from Origin http://evil.example, not from these pages (${pages.origin}). Nothing was changed.`,
    );
    expect(pages.keys.list()).toEqual([]);
    // refused before the CSRF token was looked at: the same token, posted from here, still works once
    const here = await pages.post('/account/keys', { _csrf: token, label: 'desk' });
    expect(here.status).toBe(303);
    expect(pages.keys.list().map((k) => k.label)).toEqual(['desk']);
  });

  it('takes the Referer when Origin is missing, refuses a post naming neither, and refuses null, other ports and hosts', async () => {
    const { pages } = await overLoopback();
    const port = new URL(pages.origin).port;
    await pages.signIn();
    const post = async (from: { origin?: string; referer?: string }, label: string) =>
      pages.post('/account/keys', { _csrf: await pages.csrf('/account/keys'), label }, { origin: undefined, ...from });
    const refused: [{ origin?: string; referer?: string }, string][] = [
      [
        {},
        `This form names no origin (no Origin or Referer header), so it cannot be told from one posted by another site; these pages are ${pages.origin}. Nothing was changed.`,
      ],
      [
        { origin: 'null' },
        `This form was posted from Origin null, not from these pages (${pages.origin}). Nothing was changed.`,
      ],
      [
        { origin: 'http://127.0.0.1:1' },
        `This form was posted from Origin http://127.0.0.1:1, not from these pages (${pages.origin}). Nothing was changed.`,
      ],
      [
        { origin: `https://127.0.0.1:${port}` },
        `This form was posted from Origin https://127.0.0.1:${port}, not from these pages (${pages.origin}). Nothing was changed.`,
      ],
      [
        { origin: `http://localhost:${port}` },
        `This form was posted from Origin http://localhost:${port}, not from these pages (${pages.origin}). Nothing was changed.`,
      ],
      [
        { referer: 'http://evil.example/form.html' },
        `This form was posted from a page at http://evil.example, not from these pages (${pages.origin}). Nothing was changed.`,
      ],
      // Origin decides when both are there
      [
        { origin: 'http://evil.example', referer: `${pages.origin}/account/keys` },
        `This form was posted from Origin http://evil.example, not from these pages (${pages.origin}). Nothing was changed.`,
      ],
    ];
    for (const [from, message] of refused) {
      const page = await post(from, 'refused');
      expect(page.status, JSON.stringify(from)).toBe(403);
      expect(messageOf(page), JSON.stringify(from)).toBe(message);
    }
    expect(pages.keys.list()).toEqual([]);
    expect((await post({ referer: `${pages.origin}/account/keys` }, 'by referer')).status).toBe(303);
    expect((await post({ origin: pages.origin, referer: 'http://evil.example/' }, 'by origin')).status).toBe(303);
    expect(
      pages.keys
        .list()
        .map((k) => k.label)
        .sort(),
    ).toEqual(['by origin', 'by referer']);
  });

  it('refuses a sign-in with the right token from a foreign Origin: 403, no session', async () => {
    const { pages } = await overLoopback();
    const form = { _csrf: await pages.csrf('/account/'), token: 'admin-token-for-tests-0123' };
    const page = await pages.post('/account/sign-in', form, { origin: 'http://evil.example' });
    expect(page.status).toBe(403);
    expect(page.headers['set-cookie']).toBeUndefined();
    expect(pages.jar.has('svc_session')).toBe(false);
    expect((await pages.get('/account/keys')).headers.location).toBe('/account/');
  });
});
