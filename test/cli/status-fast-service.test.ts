import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StatusReport } from '../../src/contract/status.js';
import { configHomes } from '../helpers/config-home.js';
import { startTestService, TEST_KEY, type TestService } from '../helpers/service.js';
import { runCli } from './run-cli.js';

/**
 * `status` beside a service whose clock runs faster than the host's (`server --speed 600`, as an operator tries the
 * reference service): the streams' polls are timed on the host's clock, so a stream synced seconds ago is not stale,
 * however many of its intervals the service's clock has run since. Judged on the service's clock alone, every stream
 * with a minute's interval was stale a third of a second after its pass (three minutes of the service's clock), and
 * `status` said `needs a person` of an installation that had just synced.
 */
const root = mkdtempSync(join(tmpdir(), 'svc-status-fast-'));
// the default intervals (current, metar and the buckets every 60 s: stale past 180 s)
const home = configHomes(root)({});
const db = join(root, 'cache.db');
let svc: TestService;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  // ten minutes of the world a real second, the world caught up with its clock every quarter second
  svc = await startTestService({ speed: 600, tickMs: 250 });
  env = { ...home.env, SVC_BASE_URL: svc.baseUrl, SVC_API_KEY: TEST_KEY, SVC_DB: '' };
  const sync = await runCli(['sync', '--once', '--db', db], env);
  expect(sync.code, sync.stderr).toBe(0);
});
afterAll(async () => {
  await svc.close();
  rmSync(root, { recursive: true, force: true });
});

describe('status beside a service at --speed 600', () => {
  it('judges staleness on the host clock, where the polls are timed, and shows ages on the service clock', async () => {
    const run = await runCli(['status', '--json', '--db', db], env);
    const report = JSON.parse(run.stdout) as StatusReport;
    const current = report.streams.find((s) => s.stream === 'current');

    // the sync took longer than a third of a second, so on the service's clock `current` is past its 180 s
    expect(current?.age_s).toBeGreaterThan(180);
    expect(current?.stale_after_s).toBe(180);
    // but every stream polled seconds ago on the host's clock: none stale, nothing needs a person
    expect(report.streams.filter((s) => s.state !== 'ok').map((s) => s.stream)).toEqual([]);
    expect(report.problems).toEqual([]);
    expect(run.code, run.stderr).toBe(0);
  });
});
