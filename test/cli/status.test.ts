import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Compile } from 'typebox/compile';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LISTENER_ALERT_RULES } from '../../src/alerts/listener-refusing-alert.js';
import { openCache } from '../../src/cache/index.js';
import { type StatusReport, StatusReport as StatusSchema } from '../../src/contract/status.js';
import { HandCache } from '../helpers/cache-builder.js';
import { configHomes } from '../helpers/config-home.js';
import { startTestService, TEST_KEY, type TestService } from '../helpers/service.js';
import { testEvent } from '../helpers/webhook-events.js';
import { type CliResult, runCli } from './run-cli.js';

/**
 * `svc-monitor status` (DESIGN 3) through the built CLI: a real reference service, a cache filled by `sync --once`,
 * then each fault planted in a copy of that cache through the cache's own repositories (a stale stream, a listener
 * refusing, a failing notify command) or in the environment (a rejected key, a closed port). Every stream's interval
 * is an hour in the config file, so nothing turns stale while the tests run on a loaded machine; a fault is hours old.
 */
const HOUR_S = 3600;
const STREAMS = [
  'cities',
  'current',
  'forecasts',
  'no24',
  'yescore',
  'svc-max-picks',
  'fusion-locks',
  'metar',
  'mkta-buckets',
  'mktb-buckets',
  'daily',
];
const WEBHOOK_SECRET = 'whsec_status-test-Zx9Yw8Vu7Ts6';
const root = mkdtempSync(join(tmpdir(), 'svc-status-'));
const homes = configHomes(root);
const home = homes({ intervals: Object.fromEntries(STREAMS.map((s) => [s, HOUR_S])) });
const synced = join(root, 'synced.db');
const check = Compile(StatusSchema);
let svc: TestService;
let env: NodeJS.ProcessEnv;
const outputs: string[] = [];

beforeAll(async () => {
  svc = await startTestService();
  env = {
    ...home.env,
    SVC_BASE_URL: svc.baseUrl,
    SVC_API_KEY: TEST_KEY,
    SVC_WEBHOOK_SECRET: WEBHOOK_SECRET,
    SVC_DB: '',
  };
  const sync = await runCli(['sync', '--once', '--db', synced], env);
  expect(sync.code, sync.stderr).toBe(0);
});
afterAll(async () => {
  await svc.close();
  rmSync(root, { recursive: true, force: true });
});

let copies = 0;
/** A copy of the synced cache, for one fault. */
function copyOfSynced(): string {
  const db = join(root, `copy-${++copies}.db`);
  copyFileSync(synced, db);
  if (existsSync(`${synced}-wal`)) copyFileSync(`${synced}-wal`, `${db}-wal`);
  return db;
}

async function status(args: string[], over: NodeJS.ProcessEnv = {}): Promise<CliResult> {
  const run = await runCli(['status', ...args], { ...env, ...over });
  outputs.push(run.stdout, run.stderr);
  return run;
}

/** `status --json`: the object, checked against the contract's schema. */
async function statusJson(args: string[], over: NodeJS.ProcessEnv = {}): Promise<StatusReport & { code: number }> {
  const run = await status(['--json', ...args], over);
  const report = JSON.parse(run.stdout) as StatusReport;
  expect(check.Check(report), JSON.stringify([...check.Errors(report)].slice(0, 3))).toBe(true);
  expect(report.exit_code).toBe(run.code);
  return { ...report, code: run.code ?? -1 };
}

/** Writes into a cache file through its repositories, then closes it. */
function plant(db: string, write: (hand: HandCache) => void): void {
  const cache = openCache(db);
  try {
    write(new HandCache(cache));
  } finally {
    cache.close();
  }
}

const minus = (iso: string, ms: number) => new Date(Date.parse(iso) - ms).toISOString();
const setting = (report: StatusReport, key: string) => report.config.settings.find((s) => s.key === key);

describe('svc-monitor status', () => {
  it('a healthy installation: exit 0, every stream ok, the config and where each value came from', async () => {
    const text = await status(['--db', synced]);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stderr).toBe('');
    expect(text.stdout).toMatch(/^healthy at \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z \(the monitor's clock\)\n/);
    expect(text.stdout).toContain(`service  ${svc.baseUrl} reachable, key accepted, clock `);

    const report = await statusJson(['--db', synced]);
    expect(report.code).toBe(0);
    expect(report.problems).toEqual([]);
    expect(report.service).toMatchObject({ checked: true, reachable: true, key_accepted: true, error: null });
    expect(report.service.clock_offset_from).toBe('measured');
    expect(report.streams.map((s) => [s.stream, s.state, s.interval_s, s.interval_from, s.stale_after_s])).toEqual(
      // every interval an hour (the config file): stale past 3 x 3,600 = 10,800 s
      STREAMS.map((s) => [s, 'ok', 3600, 'config file', 10_800]),
    );
    expect(setting(report, 'api_key')).toEqual({ key: 'api_key', value: 'set', from: 'SVC_API_KEY' });
    expect(setting(report, 'base_url')).toEqual({ key: 'base_url', value: svc.baseUrl, from: 'SVC_BASE_URL' });
    expect(setting(report, 'webhook_secrets')).toEqual({
      key: 'webhook_secrets',
      value: '1 set',
      from: 'SVC_WEBHOOK_SECRET',
    });
    expect(setting(report, 'db')).toEqual({ key: 'db', value: synced, from: '--db' });
    expect(setting(report, 'intervals.metar')).toEqual({ key: 'intervals.metar', value: 3600, from: 'config file' });
    expect(setting(report, 'history_hours')).toEqual({ key: 'history_hours', value: 48, from: 'default' });
    expect(setting(report, 'retention.detail_days')).toEqual({
      key: 'retention.detail_days',
      value: 14,
      from: 'default',
    });
    expect(report.config).toMatchObject({ file: home.file, file_exists: true });
    // the cache's own counts, as export reads them
    const cities = JSON.parse((await runCli(['export', 'cities', '--db', synced], env)).stdout) as unknown[];
    expect(report.cache.path).toBe(synced);
    expect(report.cache.rows.cities).toBe(cities.length);
    expect(report.cache.total_rows).toBe(Object.values(report.cache.rows).reduce((a, b) => a + b, 0));
    expect(report.cache.size_bytes).toBe(report.cache.file_bytes + report.cache.wal_bytes);
    expect(report.cache.retention_detail_days).toBe(14);
    expect(report.listener).toEqual({
      registered: false,
      first_verified_at: null,
      last_verified_at: null,
      refusals_last_hour: 0,
      last_refusal_at: null,
      refusing: false,
    });
    expect(report.insurance_picks_since).toBeNull();
  });

  it('a stream stale past three of its intervals: exit 1 naming it', async () => {
    const db = copyOfSynced();
    const { at } = await statusJson(['--db', db]);
    // metar last answered 4 h 30 s before the monitor's clock: 4 h > 3 x 1 h, said in whole minutes (4h00m). The 30 s
    // cover the clock's offset measured again from a Date header of whole seconds (up to 1 s earlier)
    const old = minus(at, 4 * HOUR_S * 1000 + 30_000);
    // its last failure quotes the key, as a service that echoes what it was sent would: cut from every output
    const echoed = `HTTP 400: unknown key ${TEST_KEY} (signed with ${WEBHOOK_SECRET})`;
    plant(db, (hand) => hand.streams({ metar: { ok: old, failed: [minus(at, 60_000), echoed] } }));
    const run = await status(['--db', db]);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      'svc-monitor: needs a person: metar: stale, last success 4h00m ago (every 1h00m, stale past 3h00m)\n',
    );
    const report = await statusJson(['--db', db]);
    expect(report.problems).toEqual(['metar: stale, last success 4h00m ago (every 1h00m, stale past 3h00m)']);
    const metar = report.streams.find((s) => s.stream === 'metar');
    expect(metar).toMatchObject({
      state: 'stale',
      last_success_at: old,
      stale_after_s: 10_800,
      last_error: 'HTTP 400: unknown key … (signed with …)',
    });
    expect(report.streams.filter((s) => s.state !== 'ok').map((s) => s.stream)).toEqual(['metar']);
  });

  it('a listener refusing: exit 1 naming it; a verified delivery clears it and sets the book’s horizon', async () => {
    const db = copyOfSynced();
    const { at } = await statusJson(['--db', db]);
    // three signature refusals 3, 2 and 1 minutes ago: three within 10 minutes, none verified between
    const refused = [3, 2, 1].map((m) => minus(at, m * 60_000));
    plant(db, (hand) =>
      hand.cache.inbox.refuse(
        refused.map((receivedAt) => ({ cause: 'signature' as const, receivedAt, eventType: 'webhook.test' })),
        LISTENER_ALERT_RULES,
      ),
    );
    const report = await statusJson(['--db', db]);
    expect(report.code).toBe(1);
    expect(report.problems).toEqual([
      `listener refusing: 3 refused in the last hour, the last at ${refused[2]}; ` +
        "the configured webhook secret does not match the service's",
    ]);
    expect(report.listener).toMatchObject({ registered: false, refusals_last_hour: 3, refusing: true });

    const verifiedAt = minus(at, 30_000);
    plant(db, (hand) => hand.deliver([testEvent()], verifiedAt));
    const cleared = await statusJson(['--db', db]);
    expect(cleared.code).toBe(0);
    expect(cleared.listener).toMatchObject({
      registered: true,
      first_verified_at: verifiedAt,
      last_verified_at: verifiedAt,
      refusals_last_hour: 3,
      refusing: false,
    });
    expect(cleared.insurance_picks_since).toBe(verifiedAt);
    const text = await status(['--db', db]);
    expect(text.stdout).toContain(`book      insurance picks since ${verifiedAt}\n`);
  });

  it('a notify command that failed in the last day and nobody acknowledged: exit 1', async () => {
    const db = copyOfSynced();
    const { at } = await statusJson(['--db', db]);
    const failedAt = minus(at, 2 * HOUR_S * 1000);
    plant(db, (hand) =>
      hand.cache.alerts.add({
        severity: 'warning',
        kind: 'notify-command-failed',
        message: 'notify_command failed on the kill alert #1: exit 2',
        created_at: failedAt,
      }),
    );
    const report = await statusJson(['--db', db]);
    expect(report.code).toBe(1);
    expect(report.problems).toEqual([
      `notify_command failing: 1 unacknowledged failure in the last day, the newest at ${failedAt}`,
    ]);
  });

  it('a rejected key is exit 3, no service is exit 4, each as one line and a report', async () => {
    const rejected = await statusJson(['--db', synced], { SVC_API_KEY: 'not-the-key-42' });
    expect(rejected.code).toBe(3);
    expect(rejected.service).toMatchObject({ checked: true, reachable: true, key_accepted: false });
    expect(rejected.problems).toEqual(['the service rejected the API key from SVC_API_KEY (401)']);
    const line = await status(['--db', synced], { SVC_API_KEY: 'not-the-key-42' });
    expect(line.stderr).toBe('svc-monitor: key rejected: the service rejected the API key from SVC_API_KEY (401)\n');

    const closed = await closedPort();
    const gone = await statusJson(['--db', synced], { SVC_BASE_URL: `http://127.0.0.1:${closed}` });
    expect(gone.code).toBe(4);
    expect(gone.service).toMatchObject({ checked: true, reachable: false, key_accepted: null });
    // no answer: the monitor's clock is the cache's kept offset
    expect(gone.service.clock_offset_from).toBe('cache');
    expect(gone.problems).toHaveLength(1);
    expect(gone.problems[0]).toMatch(
      new RegExp(`^http://127\\.0\\.0\\.1:${closed}/api/public/v1: GET /cities: no answer after 2 attempts`),
    );
  });

  it('no cache yet: a rejected key is still exit 3 and no service 4, the missing cache said beside; else exit 2', async () => {
    const none = join(root, 'never-synced.db');
    const rejected = await status(['--db', none], { SVC_API_KEY: 'not-the-key-42' });
    expect(rejected.code).toBe(3);
    expect(rejected.stderr).toBe(
      'svc-monitor: GET /cities: the service rejected the API key (401); check SVC_API_KEY or --api-key; ' +
        `and no cache at ${none} yet: run \`svc-monitor sync\` to make it\n`,
    );
    const closed = await closedPort();
    const gone = await status(['--db', none], { SVC_BASE_URL: `http://127.0.0.1:${closed}` });
    expect(gone.code).toBe(4);
    expect(gone.stderr).toContain(`; and no cache at ${none} yet`);
    const healthy = await status(['--db', none]);
    expect(healthy.code).toBe(2);
    expect(healthy.stderr).toBe(`svc-monitor: no cache at ${none} yet: run \`svc-monitor sync\` to make it\n`);
    expect(existsSync(none)).toBe(false);
  });

  it('no service configured: the report, then exit 2 saying where to set it; --offline still answers', async () => {
    const bare = { ...home.env, SVC_BASE_URL: '', SVC_API_KEY: '' };
    const report = await statusJson(['--db', synced], bare);
    expect(report.code).toBe(2);
    expect(report.service).toMatchObject({ checked: false, base_url: null, reachable: null, key_accepted: null });
    expect(setting(report, 'api_key')).toEqual({ key: 'api_key', value: 'not set', from: 'not set' });
    const line = await status(['--db', synced], bare);
    expect(line.stderr).toBe(
      `svc-monitor: not configured: no service: set SVC_BASE_URL and SVC_API_KEY, or put base_url and api_key in ${home.file}\n`,
    );
    expect((await status(['--db', synced, '--offline'], bare)).code).toBe(0);
  });

  it('--offline reads the cache alone: exit 0 or 1 by the cache, the service not checked', async () => {
    const closed = await closedPort();
    const offline = await statusJson(['--db', synced, '--offline'], { SVC_BASE_URL: `http://127.0.0.1:${closed}` });
    expect(offline.code).toBe(0);
    expect(offline.service).toEqual({
      checked: false,
      base_url: `http://127.0.0.1:${closed}`,
      reachable: null,
      key_accepted: null,
      clock_offset_ms: expect.any(Number),
      clock_offset_from: 'cache',
      error: null,
    });
    const text = await status(['--db', synced, '--offline']);
    expect(text.stdout).toMatch(/\nservice {2}not checked \(--offline\); clock [+-]\S+ \(kept in the cache\)\n/);

    const db = copyOfSynced();
    // daily last answered 5 h 30 s before the cache's clock: 5 h > 3 x 1 h, said as 5h00m
    plant(db, (hand) => hand.streams({ daily: { ok: minus(offline.at, 5 * HOUR_S * 1000 + 30_000) } }));
    const stale = await statusJson(['--db', db, '--offline']);
    expect(stale.code).toBe(1);
    expect(stale.problems).toEqual(['daily: stale, last success 5h00m ago (every 1h00m, stale past 3h00m)']);
  });

  it('retention from the config file: its days, or null for everything kept', async () => {
    for (const days of [30, null]) {
      const other = homes({ retention: { detail_days: days } });
      const report = await statusJson(['--db', synced, '--offline'], other.env);
      expect(setting(report, 'retention.detail_days')).toEqual({
        key: 'retention.detail_days',
        value: days,
        from: 'config file',
      });
      expect(report.cache.retention_detail_days).toBe(days);
      const text = await status(['--db', synced, '--offline'], other.env);
      expect(text.stdout).toContain(
        days === null
          ? '  retention  everything kept\n'
          : '  retention  30 days kept whole, older days thinned to the hour\n',
      );
    }
  });

  it('never prints the key or the webhook secret', () => {
    expect(outputs.length).toBeGreaterThan(10);
    for (const out of outputs) {
      expect(out).not.toContain(TEST_KEY);
      expect(out).not.toContain('not-the-key-42');
      expect(out).not.toContain(WEBHOOK_SECRET);
    }
  });
});

/** A loopback port nothing listens on: one the system gave out, then closed. */
function closedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}
