import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startTestService, TEST_KEY, type TestService } from '../helpers/service.js';
import { runCli } from './run-cli.js';

/** A key pasted into the wrong place: it must never be printed back. */
const KEY = 'sk_live_7fQ2mZ9xR4vB8nK1pL6tW3yH';

let svc: TestService;
const root = mkdtempSync(join(tmpdir(), 'svc-arg-errors-'));
const env = { XDG_DATA_HOME: join(root, 'data'), XDG_CONFIG_HOME: join(root, 'config') };
const db = join(root, 'cache.db');
const store = join(root, 'server');

beforeAll(async () => {
  svc = await startTestService();
  cpSync(inject('templateDir'), store, { recursive: true });
  const filled = await runCli(['sync', '--once', '--db', db, '--base-url', svc.baseUrl, '--api-key', TEST_KEY], env);
  expect(filled.code, filled.stderr).toBe(0);
});
afterAll(async () => {
  await svc?.close();
  rmSync(root, { recursive: true, force: true });
});

/** Runs `args` and checks the key is nowhere in the output while `names` (what was wrong, and what it expects) are. */
async function refuses(args: string[], code: number, ...names: (string | RegExp)[]) {
  const result = await runCli(args, env);
  const what = args.join(' ');
  expect(result.code, `${what}\n${result.stderr}`).toBe(code);
  expect(result.stdout, what).not.toContain(KEY);
  expect(result.stderr, what).not.toContain(KEY);
  expect(result.stderr, what).not.toContain(encodeURIComponent(KEY).slice(8));
  for (const name of names) {
    if (typeof name === 'string') expect(result.stderr, what).toContain(name);
    else expect(result.stderr, what).toMatch(name);
  }
  return result;
}

describe('a key typed into the wrong place is never printed back', () => {
  it('listen: --port, --port=, --host', async () => {
    await refuses(
      ['listen', '--port', KEY],
      2,
      "option '--port <n>' is invalid: a port is a whole number from 0 to 65535",
    );
    await refuses(['listen', `--port=${KEY}`], 2, "option '--port <n>' is invalid");
    await refuses(
      ['listen', '--host', KEY, '--port', '0', '--secret', 'the-secret-of-this-test', '--db', db],
      2,
      '--host: the address given cannot be resolved',
    );
  });

  it('monitor: --listen, and a first word that is no command', async () => {
    await refuses(['monitor', '--listen', KEY], 2, "option '--listen <port>' is invalid: a port is a whole number");
    await refuses([KEY], 2, "svc-monitor: unknown command '…' (see svc-monitor --help)");
  });

  it('export: NAME, --since, --until, --format', async () => {
    const name = await refuses(['export', KEY, '--db', db], 2, "unknown export name '…'; valid names: cities,");
    expect(name.stderr).toContain('rejected-webhooks');
    await refuses(['export', 'cities', '--since', KEY, '--db', db], 2, "option '--since <date>' is invalid: must be");
    await refuses(['export', 'alerts', '--until', KEY, '--db', db], 2, "option '--until <date>' is invalid: must be");
    await refuses(['export', 'cities', '--format', KEY, '--db', db], 2, '--format must be one of json, ndjson, csv');
  });

  it('sync: --backfill, --since, an argument it does not take', async () => {
    const service = ['--db', db, '--base-url', svc.baseUrl, '--api-key', TEST_KEY];
    await refuses(['sync', '--backfill', `wxa_history,${KEY}`, ...service], 2, 'unknown historical table');
    const since = await runCli(['sync', '--backfill', 'wxa_history', '--since', KEY, ...service], env);
    expect(since.code).not.toBe(0);
    expect(since.stdout + since.stderr).not.toContain(KEY);
    expect(since.stderr).toContain('since');
    await refuses(['sync', KEY], 2, "too many arguments for 'sync'");
  });

  it('server: --port, --seed, --speed, --start, --host, and unknown subcommands', async () => {
    await refuses(['server', '--port', KEY], 2, "option '--port <n>' is invalid");
    await refuses(['server', '--seed', KEY], 2, "option '--seed <n>' is invalid: must be a whole number");
    await refuses(['server', '--speed', KEY], 2, "option '--speed <x>' is invalid: must be a number above 0");
    await refuses(
      ['server', '--start', KEY],
      2,
      "option '--start <iso>' is invalid: must be YYYY-MM-DD or an ISO 8601",
    );
    await refuses(['server', '--host', KEY, '--port', '0', '--data-dir', store], 2, '--host');
    await refuses(['server', 'keys', KEY], 2, 'unknown command');
    await refuses(['server', 'webhooks', KEY], 2, 'unknown command');
  });

  it('server keys and webhooks: the ID of revoke, remove, enable, test, deliveries; add URL and --events', async () => {
    await refuses(['server', 'keys', 'revoke', KEY, '--data-dir', store], 2, /no active key with id/);
    for (const command of ['remove', 'enable', 'test', 'deliveries']) {
      await refuses(['server', 'webhooks', command, KEY, '--data-dir', store], 2, /no webhook with id/);
    }
    await refuses(['server', 'webhooks', 'add', KEY, '--data-dir', store], 2, 'webhook URL');
    await refuses(
      ['server', 'webhooks', 'add', 'https://8.8.8.8/', '--events', `edge.trade.entered,${KEY}`, '--data-dir', store],
      2,
      'unknown event type',
    );
  });

  it('an unknown option keeps its name but never a value given with =', async () => {
    await refuses(['sync', `--api-key=${KEY}`, '--bogus=1'], 2, "unknown option '--bogus=…'");
    await refuses(['export', 'cities', `--format=${KEY}`, '--db', db], 2, '--format must be one of');
  });
});
