import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { configHomes } from '../helpers/config-home.js';
import { runCli } from './run-cli.js';

/**
 * A service that echoes what it was sent (a misconfigured service, a proxy's error page) must not carry the key into
 * `sync`'s stderr, its `--json` errors, the cache's `stream_state.last_error` (which the TUI and `status` show), nor
 * `status`'s outputs: the client cuts it from its errors, as typed and URL-encoded.
 */

// '/', '+' and '=' make the URL-encoded form differ from the key as typed
const KEY = 'sk_echo/Key+Zz9Yy8Xx7=';
const ENCODED = encodeURIComponent(KEY);
const root = mkdtempSync(join(tmpdir(), 'svc-sync-secrets-'));
const home = configHomes(root)({});
let echo: Server;
let baseUrl: string;

beforeAll(async () => {
  // every request answered 400 with a JSON error quoting the key it was sent, both forms
  echo = createServer((req, res) => {
    const key = String(req.headers['x-api-key'] ?? '');
    res.writeHead(400, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: `unknown key ${key} (as sent: ${encodeURIComponent(key)})` }));
  });
  await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(echo.address() as AddressInfo).port}/api/public/v1`;
});
afterAll(async () => {
  await new Promise((resolve) => echo.close(resolve));
  rmSync(root, { recursive: true, force: true });
});

it('sync --once, its --json, the cache and status carry no echoed key', async () => {
  const db = join(root, 'cache.db');
  const env = { ...home.env, SVC_BASE_URL: baseUrl, SVC_API_KEY: KEY, SVC_DB: '' };
  const sync = await runCli(['sync', '--once', '--json', '--no-notify', '--db', db], env);
  const status = await runCli(['status', '--db', db], env);
  const statusJson = await runCli(['status', '--json', '--db', db], env);
  const cache = new Database(db, { readonly: true });
  const lastErrors = cache.prepare('SELECT last_error FROM stream_state WHERE last_error IS NOT NULL').pluck().all();
  cache.close();
  // the service's text reached every output, the key cut where it stood: `unknown key … (as sent: …)`
  const errors = JSON.stringify(JSON.parse(sync.stdout.trim().split('\n').at(-1) as string).errors);
  expect(errors).toContain('unknown key … (as sent: …)');
  expect(statusJson.stdout).toContain('unknown key … (as sent: …)');
  expect(lastErrors.length).toBeGreaterThan(0);
  for (const e of lastErrors) expect(e).toContain('unknown key … (as sent: …)');
  for (const text of [sync.stdout, sync.stderr, status.stdout, status.stderr, statusJson.stdout, ...lastErrors]) {
    expect(text).not.toContain(KEY);
    expect(text).not.toContain(ENCODED);
    expect(text).not.toContain('Zz9Yy8Xx7');
  }
});
