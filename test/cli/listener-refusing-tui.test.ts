import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { startTui, type TuiProcess } from '../e2e/terminal.js';
import { onFixtureClock } from '../helpers/fixture-clock.js';
import { httpClient, isolatedEnv } from '../helpers/listener-harness.js';
import { PRIMARY_SECRET, STRANGER_SECRET, signed, testEvent } from '../helpers/webhook-events.js';
import { startCli } from './run-cli.js';

/**
 * DESIGN 4: the status bar says `listener refusing` until a delivery verifies, also when the listener is a `listen`
 * in another process writing the same cache: the monitor (here offline, in a pseudo-terminal) reads it there.
 */

const root = mkdtempSync(join(tmpdir(), 'svc-refusing-tui-'));
const http = httpClient();
const stops: (() => unknown)[] = [];
afterAll(async () => {
  for (const stop of stops.reverse()) await stop();
  await http.close();
  rmSync(root, { recursive: true, force: true });
});

it('shows `listener refusing` once a listen beside it refused three deliveries, until one verifies', async () => {
  const db = join(root, 'cache.db');
  const env = isolatedEnv(root);
  // the fixtures' day, not the host's: else the verified one below is a replay (fixture-clock.ts)
  onFixtureClock(db);
  // the listener was given another secret than the one the deliveries are signed with (the service's)
  const listen = await startCli(
    ['listen', '--port', '0', '--secret', STRANGER_SECRET, '--db', db, '--no-notify'],
    /listening on (http:\/\/\S+)/,
    env,
  );
  stops.push(async () => {
    listen.child.kill('SIGTERM');
    await listen.exited;
  });
  const url = listen.match[1] as string;
  const tui: TuiProcess = startTui(['--offline', '--db', db, '--no-notify'], env, { cols: 200, rows: 30 });
  stops.push(() => tui.kill());
  await tui.waitFor('OFFLINE');
  await tui.waitFor('hook off');
  expect(tui.screen()).not.toContain('listener refusing');

  for (let i = 0; i < 3; i++) expect((await http.post(url, signed(PRIMARY_SECRET, testEvent()))).status).toBe(401);
  await tui.waitFor('!! listener refusing');
  // signed with the listener's own secret: verified, stored, and the bar says it no more
  expect((await http.post(url, signed(STRANGER_SECRET, testEvent()))).status).toBe(200);
  await tui.waitForGone('listener refusing');
  tui.press('q');
  expect((await tui.exited).exitCode).toBe(0);
});
