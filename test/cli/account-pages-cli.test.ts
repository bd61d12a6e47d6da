import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, inject, it } from 'vitest';
import { runCli, startCli } from './run-cli.js';

const root = mkdtempSync(join(tmpdir(), 'svc-account-cli-'));
const env = { XDG_DATA_HOME: join(root, 'xdg-data'), XDG_CONFIG_HOME: join(root, 'xdg-config') };
afterAll(() => rmSync(root, { recursive: true, force: true }));

it('prints the account pages after its listening line, signs in with --admin-token, and never prints the token', async () => {
  const dataDir = join(root, 'server');
  cpSync(inject('templateDir'), dataDir, { recursive: true });
  const adminToken = 'cli-admin-token-never-printed';
  const server = await startCli(
    ['server', '--port', '0', '--data-dir', dataDir, '--admin-token', adminToken],
    /^listening on http:\/\/127\.0\.0\.1:(\d+)\/api\/public\/v1\naccount pages: (\S+)\n/m,
    env,
  );
  const [, port, accountUrl] = server.match;
  expect(accountUrl).toBe(`http://127.0.0.1:${port}/account/`);
  // --admin-token given: nothing is written to DIR/admin-token
  expect(existsSync(join(dataDir, 'admin-token'))).toBe(false);

  const page = await fetch(accountUrl as string);
  expect(page.status).toBe(200);
  const csrfCookie = (page.headers.get('set-cookie') ?? '').split(';')[0] as string;
  const csrf = (await page.text()).match(/name="_csrf" value="([^"]+)"/)?.[1] as string;
  // a form says where it came from, as a browser's does (the pages refuse one that names no origin)
  const origin = new URL(accountUrl as string).origin;
  const signIn = (token: string) =>
    fetch(`${accountUrl}sign-in`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: csrfCookie, origin },
      body: new URLSearchParams({ _csrf: csrf, token }).toString(),
    });
  const signedIn = await signIn(adminToken);
  expect(signedIn.status).toBe(303);
  const cookie = `${csrfCookie}; ${(signedIn.headers.get('set-cookie') ?? '').split(';')[0]}`;
  const post = async (path: string, form: Record<string, string>) =>
    fetch(`${accountUrl}${path}`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie, origin },
      body: new URLSearchParams(form).toString(),
    });
  const keysCsrf = async () =>
    ((await (await fetch(`${accountUrl}keys`, { headers: { cookie } })).text()).match(
      /name="_csrf" value="([^"]+)"/,
    )?.[1] ?? '') as string;
  expect((await post('keys', { _csrf: await keysCsrf(), label: 'cli' })).status).toBe(303);
  const shown = await (await fetch(`${accountUrl}keys`, { headers: { cookie } })).text();
  const key = shown.match(/<output id="new-key"[^>]*>([^<]+)</)?.[1] as string;
  expect(key).toMatch(/^svc_/);
  // a refused form and a wrong token: neither may put the key or the token in the server's output
  expect((await post('keys', { _csrf: 'forged', label: key })).status).toBe(403);
  expect((await signIn(`${adminToken}-wrong`)).status).toBe(403); // its CSRF token was used by the first sign-in

  server.child.kill('SIGTERM');
  expect(await server.exited).toBe(0);
  const { stdout, stderr } = server.output();
  expect(stdout + stderr).not.toContain(adminToken);
  expect(stdout + stderr).not.toContain(key);

  const empty = await runCli(['server', '--port', '0', '--data-dir', dataDir, '--admin-token', ' '], env);
  expect(empty.code).toBe(2);
  expect(empty.stderr).toBe('svc-monitor: --admin-token must not be empty\n');
  // 15 characters: one short of the least taken (the right token always signs in, so its length is the guard)
  const short = await runCli(['server', '--port', '0', '--data-dir', dataDir, '--admin-token', 'fifteen-chars-x'], env);
  expect(short.code).toBe(2);
  expect(short.stderr).toBe('svc-monitor: --admin-token must be at least 16 characters long\n');
});
