import { type ChildProcess, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { STREAM_NAMES } from '../../src/contract/config.js';
import { fakeNotifySend, waitUntil } from '../helpers/listener-harness.js';
import { startTestService, TEST_KEY, type TestService } from '../helpers/service.js';
import { CLI } from './run-cli.js';

/**
 * `sync --no-notify` (DESIGN 3): the daemon raises no desktop notification, while its alerts still go to the notify
 * command. The world at x240, every stream every second and an edge of 2 points alerting (as
 * sync-daemon-edges.test.ts): the first alert that notifies reaches the notify command; a fake `notify-send` first on
 * PATH is never run.
 */
const root = mkdtempSync(join(tmpdir(), 'sync-no-notify-'));
let svc: TestService | undefined;
let daemon: ChildProcess | undefined;
afterAll(async () => {
  daemon?.kill('SIGKILL');
  await svc?.close();
  rmSync(root, { recursive: true, force: true });
});

/**
 * The streams an edge waits on, polled every 8 s: an alert is news within two intervals of the slowest of them (DESIGN
 * 4 "alerts in time"), 2 x 8 s x 240 = 64 minutes of this world, so the first pass's edges, on snapshots up to half an
 * hour old, notify; polled every second, they were 8 world minutes, and a first pass's edges were catch-up.
 */
const PRICED_EVERY = { metar: 8, forecasts: 8, 'mkta-buckets': 8, 'mktb-buckets': 8 };

/** The daemon with `flags` over the x240 world until the notify command got `alerts` alerts, then SIGTERM. */
async function runUntilAlerts(name: string, flags: string[], path: string, alerts: number) {
  const dir = join(root, name);
  mkdirSync(dir, { recursive: true });
  // the notify command: each alert's JSON appended to a file, a line each (by paths: the PATH may hold nothing)
  const received = join(dir, 'command.log');
  const command = join(dir, 'notify-command');
  writeFileSync(command, `#!/bin/sh\n/bin/cat >> '${received}'\nprintf '\\n' >> '${received}'\n`);
  chmodSync(command, 0o755);
  const config = join(dir, 'config');
  mkdirSync(join(config, 'svc-monitor'), { recursive: true });
  writeFileSync(
    join(config, 'svc-monitor', 'config.json'),
    JSON.stringify({
      intervals: { ...Object.fromEntries(STREAM_NAMES.map((s) => [s, 1])), ...PRICED_EVERY },
      alerts: { edge_min: 0.02, notify_command: [command] },
    }),
    { mode: 0o600 },
  );
  const env = {
    ...process.env,
    PATH: path,
    SVC_BASE_URL: svc?.baseUrl,
    SVC_API_KEY: TEST_KEY,
    XDG_CONFIG_HOME: config,
  };
  const running = spawn(process.execPath, [CLI, 'sync', ...flags, '--db', join(dir, 'cache.db')], {
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  daemon = running;
  let stderr = '';
  running.stderr?.on('data', (d) => {
    stderr += d;
  });
  const exited = new Promise<number | null>((done) => running.once('close', done));
  const count = () => (existsSync(received) ? readFileSync(received, 'utf8').split('"kind"').length - 1 : 0);
  await waitUntil(`${alerts} alerts at the notify command`, () => (count() >= alerts ? true : undefined));
  running.kill('SIGTERM');
  // the daemon waits for what it notifies before it exits: nothing is left on its way to the desktop
  const code = await exited;
  return { code, stderr };
}

describe('sync --no-notify', () => {
  it('sends the alerts that notify to the notify command and none to the desktop', async () => {
    svc = await startTestService({ speed: 240, tickMs: 250 });
    const notify = fakeNotifySend(root);
    const run = await runUntilAlerts('no-notify', ['--no-notify'], `${notify.bin}:${process.env.PATH}`, 1);
    expect(run.code, run.stderr).toBe(0);
    expect(notify.calls()).toEqual([]);
    expect(run.stderr).not.toContain('desktop notification failed');
  });

  it('without notify-send (a headless box) says so once, however many alerts', async () => {
    // a PATH with nothing on it: the notify command is named by its path, node by the test's
    const empty = join(root, 'empty-bin');
    mkdirSync(empty, { recursive: true });
    const run = await runUntilAlerts('headless', [], empty, 3);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr.split('\n').filter((l) => l.includes('desktop notification failed'))).toHaveLength(1);
  });
});
