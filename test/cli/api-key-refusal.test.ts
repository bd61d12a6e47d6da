import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, TEST_KEY, type TestService } from '../helpers/service.js';
import { runCli } from './run-cli.js';

let svc: TestService;
const root = mkdtempSync(join(tmpdir(), 'svc-api-key-'));
const env = { XDG_DATA_HOME: join(root, 'data'), XDG_CONFIG_HOME: join(root, 'config') };
const configFile = join(env.XDG_CONFIG_HOME, 'svc-monitor', 'config.json');
const db = join(root, 'cache.db');

beforeAll(async () => {
  svc = await startTestService();
});
afterAll(async () => {
  await svc.close();
  rmSync(root, { recursive: true, force: true });
});

/** Keys a header cannot carry, as they come: a key file with Windows line ends, a pasted line, a typographic dash. */
const BAD_KEYS = [
  { key: `${TEST_KEY}\r\n`, problem: 'contains a line break (a key file saved with Windows line ends?)' },
  { key: `${TEST_KEY}\n`, problem: 'contains a line break (a key file saved with Windows line ends?)' },
  { key: `${TEST_KEY}\u2013x`, problem: 'contains a character outside Latin-1 (header values cannot carry it)' },
];

describe('an API key no HTTP header can carry', () => {
  it('is refused up front, exit 2, from the flag, the environment or the config file, and never shown', async () => {
    for (const { key, problem } of BAD_KEYS) {
      const flag = await runCli(['sync', '--once', '--db', db, '--base-url', svc.baseUrl, '--api-key', key], env);
      // before: exit 13 and no output, the ninth request waiting for ever on a connection slot
      expect({ code: flag.code, stderr: flag.stderr }).toEqual({
        code: 2,
        stderr: `svc-monitor: the API key from --api-key ${problem} (the key is not shown)\n`,
      });

      const fromEnv = await runCli(['sync', '--once', '--db', db], {
        ...env,
        SVC_BASE_URL: svc.baseUrl,
        SVC_API_KEY: key,
      });
      expect({ code: fromEnv.code, stderr: fromEnv.stderr }).toEqual({
        code: 2,
        stderr: `svc-monitor: the API key from SVC_API_KEY ${problem} (the key is not shown)\n`,
      });

      mkdirSync(join(env.XDG_CONFIG_HOME, 'svc-monitor'), { recursive: true, mode: 0o700 });
      writeFileSync(configFile, JSON.stringify({ base_url: svc.baseUrl, api_key: key }));
      chmodSync(configFile, 0o600);
      const fromFile = await runCli(['sync', '--once', '--db', db], env);
      rmSync(configFile);
      expect({ code: fromFile.code, stderr: fromFile.stderr }).toEqual({
        code: 2,
        stderr: `svc-monitor: ${configFile}: api_key ${problem} (the key is not shown)\n`,
      });

      for (const result of [flag, fromEnv, fromFile]) expect(result.stdout + result.stderr).not.toContain(TEST_KEY);
    }
    // refused before the cache was touched
    expect(existsSync(db)).toBe(false);
  });

  it('is not saved by --save', async () => {
    const saved = await runCli(
      ['sync', '--once', '--db', db, '--base-url', svc.baseUrl, '--api-key', `${TEST_KEY}\r`, '--save'],
      env,
    );
    expect(saved.code).toBe(2);
    expect(saved.stderr).not.toContain(TEST_KEY);
    expect(existsSync(configFile)).toBe(false);
  });
});
