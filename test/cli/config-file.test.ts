import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCache } from '../../src/cache/index.js';
import { configHomes } from '../helpers/config-home.js';
import { startTestService, TEST_KEY, type TestService } from '../helpers/service.js';
import { runCli, startCli } from './run-cli.js';

let svc: TestService;
const root = mkdtempSync(join(tmpdir(), 'svc-config-file-'));

beforeAll(async () => {
  svc = await startTestService();
});
afterAll(async () => {
  await svc.close();
  rmSync(root, { recursive: true, force: true });
});

/** A home of its own with `config` as its config file (see helpers/config-home.ts). */
const home = configHomes(root);

const syncOnce = (h: ReturnType<typeof home>, extra: string[] = [], env: NodeJS.ProcessEnv = {}) =>
  runCli(['sync', '--once', '--db', h.db, ...extra], { ...h.env, ...env });

describe('the config file', () => {
  it('bounds each interval to 1 s .. 1 day, naming the stream', async () => {
    for (const seconds of [3_000_000, 86_401, 0.5, 0]) {
      const h = home({ base_url: svc.baseUrl, api_key: TEST_KEY, intervals: { current: seconds } });
      const result = await syncOnce(h);
      expect(result.code, `${seconds}: ${result.stderr}`).toBe(2);
      expect(result.stderr).toBe(
        `svc-monitor: ${h.file}: intervals.current must be a number of seconds from 1 to 86400\n`,
      );
      expect(existsSync(h.db)).toBe(false);
    }
  });

  it('bounds history_hours to whole hours 1 .. 720', async () => {
    for (const hours of [0, 721, 1.5, -48]) {
      const h = home({ base_url: svc.baseUrl, api_key: TEST_KEY, history_hours: hours });
      const result = await syncOnce(h);
      expect(result.code, `${hours}: ${result.stderr}`).toBe(2);
      expect(result.stderr).toBe(
        `svc-monitor: ${h.file}: history_hours must be a whole number of hours from 1 to 720\n`,
      );
      expect(existsSync(h.db)).toBe(false);
    }
  });

  it('refuses a stream DESIGN 3 does not name, and takes every one it does', async () => {
    const typo = home({ base_url: svc.baseUrl, api_key: TEST_KEY, intervals: { curent: 60 } });
    const refused = await syncOnce(typo);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toBe(
      `svc-monitor: ${typo.file}: unknown stream \`curent\` in intervals; the streams are cities, current, ` +
        'forecasts, no24, yescore, svc-max-picks, fusion-locks, mkta-buckets, mktb-buckets, metar, daily\n',
    );
    const intervals = {
      cities: 86_400,
      current: 1,
      forecasts: 300,
      no24: 120,
      yescore: 120,
      'svc-max-picks': 120,
      'fusion-locks': 30,
      'mkta-buckets': 60,
      'mktb-buckets': 60,
      metar: 60,
      daily: 1800,
    };
    const every = home({ base_url: svc.baseUrl, api_key: TEST_KEY, intervals });
    const accepted = await syncOnce(every);
    expect(accepted.code, accepted.stderr).toBe(0);
  });

  it('checks settlement: each city settles by "metar_c" or "whole_f", a wrong value named', async () => {
    const cases: [unknown, string][] = [
      [{ nyc: 'whole' }, 'settlement.nyc must be "metar_c" or "whole_f"'],
      [{ nyc: 3 }, 'settlement.nyc must be "metar_c" or "whole_f"'],
      ['whole_f', 'settlement must be an object of city ids, each "metar_c" or "whole_f"'],
    ];
    for (const [settlement, message] of cases) {
      const h = home({ base_url: svc.baseUrl, api_key: TEST_KEY, settlement });
      const result = await syncOnce(h);
      expect(result.code, JSON.stringify(settlement)).toBe(2);
      expect(result.stderr).toBe(`svc-monitor: ${h.file}: ${message}\n`);
      expect(existsSync(h.db)).toBe(false);
    }
    // a good one is taken: export board reads a cache with it
    const good = home({ settlement: { nyc: 'whole_f', paris: 'metar_c' } });
    openCache(good.db).close();
    const result = await runCli(['export', 'board', '--db', good.db], good.env);
    expect(result).toEqual({ code: 0, stdout: '[]\n', stderr: '' });
  });

  it('names an unknown key instead of "schema is false"', async () => {
    const h = home({ base_url: svc.baseUrl, api_kye: TEST_KEY });
    const result = await syncOnce(h);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(`svc-monitor: ${h.file}: unknown key \`api_kye\`\n`);
    expect(result.stderr).not.toContain(TEST_KEY);
  });

  it('refuses a base URL that is not http(s) at once, from the file, the environment or the flag', async () => {
    const fromFile = home({ base_url: 'ftp://svc.example/api/public/v1', api_key: TEST_KEY });
    const file = await syncOnce(fromFile);
    expect(file.code).toBe(2);
    expect(file.stderr).toBe(`svc-monitor: ${fromFile.file}: base_url is not an http:// or https:// URL\n`);

    const h = home({ api_key: TEST_KEY });
    // a bare host:port parses as a URL of scheme "localhost:": before, 12 s of retries and exit 4
    const env = await syncOnce(h, [], { SVC_BASE_URL: 'localhost:8787' });
    expect(env.code).toBe(2);
    expect(env.stderr).toBe('svc-monitor: the base URL from SVC_BASE_URL is not an http:// or https:// URL\n');
    const flag = await syncOnce(h, ['--base-url', 'not a url']);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toBe(
      'svc-monitor: the base URL from --base-url is not a URL (it must look like https://host[:port])\n',
    );
  });

  it('is refused when other users can change it, and used with one warning when they can read it', async () => {
    const writable = home({ base_url: svc.baseUrl, api_key: TEST_KEY }, 0o666);
    const refused = await syncOnce(writable);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toBe(
      `svc-monitor: ${writable.file} can be changed by other users (mode 0666), and whoever changes it can send ` +
        `your key to their own host: run chmod 600 ${writable.file}\n`,
    );
    const groupWritable = home({ intervals: { current: 60 } }, 0o620);
    expect((await runCli(['export', 'cities', '--db', groupWritable.db], groupWritable.env)).code).toBe(2);

    const readable = home({ base_url: svc.baseUrl, api_key: TEST_KEY }, 0o644);
    const warned = await syncOnce(readable);
    expect(warned.code, warned.stderr).toBe(0);
    expect(warned.stderr).toBe(
      `svc-monitor: warning: ${readable.file} holds a key and other users can read it (mode 0644): ` +
        `run chmod 600 ${readable.file}\n`,
    );
    expect(warned.stdout + warned.stderr).not.toContain(TEST_KEY);

    const own = home({ base_url: svc.baseUrl, api_key: TEST_KEY }, 0o600);
    const quiet = await syncOnce(own);
    expect({ code: quiet.code, stderr: quiet.stderr }).toEqual({ code: 0, stderr: '' });
  });
});

describe('an SVC_* variable set but empty', () => {
  it('counts as unset: the config file’s service, key and secrets are used, and the cache is the default one', async () => {
    const h = home({ base_url: svc.baseUrl, api_key: TEST_KEY, webhook_secrets: ['the-secret-of-the-config-file'] });
    const empty = { SVC_BASE_URL: '', SVC_API_KEY: '', SVC_DB: '', SVC_WEBHOOK_SECRET: '' };
    const synced = await runCli(['sync', '--once', '--json'], { ...h.env, ...empty });
    expect({ code: synced.code, stderr: synced.stderr }).toEqual({ code: 0, stderr: '' });
    expect(JSON.parse(synced.stdout).errors).toEqual([]);
    // <data dir>/svc-monitor/cache.db, the default: not a file named '' in the working directory
    const cache = openCache(join(h.env.XDG_DATA_HOME, 'svc-monitor', 'cache.db'), 'read');
    try {
      expect(cache.resources.cityIds().length).toBeGreaterThan(0);
    } finally {
      cache.close();
    }
    const listening = await startCli(
      ['listen', '--port', '0', '--no-notify'],
      /listening on http:\/\/127\.0\.0\.1:\d+\//,
      {
        ...h.env,
        ...empty,
      },
    );
    listening.child.kill('SIGTERM');
    expect(await listening.exited).toBe(0);
  });
});
