import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, TEST_KEY, type TestService } from '../helpers/service.js';
import { runCli } from './run-cli.js';

let svc: TestService;
const root = mkdtempSync(join(tmpdir(), 'svc-sync-cli-'));
const env = { XDG_DATA_HOME: join(root, 'data'), XDG_CONFIG_HOME: join(root, 'config') };
const db = join(root, 'cache.db');

beforeAll(async () => {
  svc = await startTestService();
});
afterAll(async () => {
  await svc.close();
  rmSync(root, { recursive: true, force: true });
});

describe('svc-monitor sync and export', () => {
  it('syncs once and prints the summary; exports json, ndjson and csv of the same rows', async () => {
    const sync = await runCli(
      ['sync', '--once', '--json', '--db', db, '--base-url', svc.baseUrl, '--api-key', TEST_KEY],
      env,
    );
    expect(sync.code, sync.stderr).toBe(0);
    const summary = JSON.parse(sync.stdout);
    expect(summary.errors).toEqual([]);
    expect(summary.streams['fusion-locks']).toEqual({
      fetched: expect.any(Number),
      inserted: expect.any(Number),
      updated: 0,
    });
    expect(sync.stdout + sync.stderr).not.toContain(TEST_KEY);

    const json = JSON.parse((await runCli(['export', 'yescore', '--db', db], env)).stdout);
    const ndjson = (await runCli(['export', 'yescore', '--format', 'ndjson', '--db', db], env)).stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(ndjson).toEqual(json);
    expect(json).toEqual((await svc.get('/yescore?limit=1000')).body.data);
    const csv = (await runCli(['export', 'yescore', '--format', 'csv', '--db', db, '--city', 'paris'], env)).stdout
      .trim()
      .split('\r\n');
    expect(csv[0]?.split(',')).toContain('corrected_max_c');
    expect(csv).toHaveLength(1 + json.filter((r: { city_id: string }) => r.city_id === 'paris').length);
    expect((await runCli(['export', 'yescore', '--format', 'xml', '--db', db], env)).code).toBe(2);
  });

  it('exits 2 without a service, 3 on a rejected key, 4 when the service cannot be reached', async () => {
    const missing = await runCli(['sync', '--once', '--db', db], env);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('no service configured');
    const rejected = await runCli(
      ['sync', '--once', '--db', db, '--base-url', svc.baseUrl, '--api-key', 'not-the-key-42'],
      env,
    );
    expect(rejected.code).toBe(3);
    expect(rejected.stderr).not.toContain('not-the-key-42');
    const unreachable = await runCli(
      ['sync', '--once', '--db', join(root, 'other.db'), '--base-url', 'http://127.0.0.1:9', '--api-key', TEST_KEY],
      env,
    );
    expect(unreachable.code).toBe(4);
  });

  it('reads the service from the environment, and --save writes a config file only its owner can read', async () => {
    const fromEnv = await runCli(['sync', '--once', '--db', db], {
      ...env,
      SVC_BASE_URL: svc.baseUrl,
      SVC_API_KEY: TEST_KEY,
    });
    expect(fromEnv.code, fromEnv.stderr).toBe(0);
    const saved = await runCli(
      ['sync', '--once', '--db', db, '--base-url', svc.baseUrl, '--api-key', TEST_KEY, '--save'],
      env,
    );
    expect(saved.code).toBe(0);
    const file = join(env.XDG_CONFIG_HOME, 'svc-monitor', 'config.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect((await runCli(['sync', '--once', '--db', db], env)).code).toBe(0);
  });
});
