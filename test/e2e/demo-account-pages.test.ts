import { cpSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, inject, it } from 'vitest';
import { startTui, type TuiProcess } from './terminal.js';

const root = mkdtempSync(join(tmpdir(), 'svc-e2e-pages-'));
const running: TuiProcess[] = [];
afterAll(() => {
  for (const tui of running) tui.kill();
  rmSync(root, { recursive: true, force: true });
});

it("shows the demo service's account pages and its admin token file in the help, and both are real", async () => {
  const env = { XDG_DATA_HOME: join(root, 'data'), XDG_CONFIG_HOME: join(root, 'config'), SVC_API_KEY: '' };
  const serverDir = join(env.XDG_DATA_HOME, 'svc-monitor', 'demo', 'server');
  // the demo's world from the test template, so the first start does not fill 30 days
  cpSync(inject('templateDir'), serverDir, { recursive: true });
  const tui = startTui([], env, { cols: 140, rows: 40 });
  running.push(tui);
  await tui.waitFor('DEMO');

  tui.press('?');
  // the help is longer than the screen: a page at a time until its last section shows
  let screen = await tui.waitFor('KEYS');
  for (let i = 0; i < 10 && !screen.includes('admin token in'); i++) {
    tui.press(' ');
    screen = await new Promise<string>((r) => setTimeout(() => r(tui.screen()), 150));
  }
  const tokenFile = join(serverDir, 'admin-token');
  expect(screen).toContain(`admin token in      ${tokenFile}`);
  const url = screen.match(/address\s+(http:\/\/127\.0\.0\.1:\d+\/account\/)/)?.[1] as string;
  expect(url).toBeDefined();

  expect(statSync(tokenFile).mode & 0o777).toBe(0o600);
  const page = await fetch(url);
  expect(page.status).toBe(200);
  expect(await page.text()).toContain('<button type="submit" class="primary">Sign in</button>');
  // the token in the file signs in
  const csrfCookie = (page.headers.get('set-cookie') ?? '').split(';')[0] as string;
  const csrf = (await (await fetch(url, { headers: { cookie: csrfCookie } })).text()).match(
    /name="_csrf" value="([^"]+)"/,
  )?.[1] as string;
  const signIn = await fetch(`${url}sign-in`, {
    method: 'POST',
    redirect: 'manual',
    // a form says where it came from, as a browser's does (the pages refuse one that names no origin)
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: csrfCookie, origin: new URL(url).origin },
    body: new URLSearchParams({ _csrf: csrf, token: readFileSync(tokenFile, 'utf8').trim() }).toString(),
  });
  expect(signIn.status).toBe(303);
  // and the token itself is never on the screen
  expect(tui.output()).not.toContain(readFileSync(tokenFile, 'utf8').trim());

  tui.press('q');
  expect((await tui.exited).exitCode).toBe(0);
});
