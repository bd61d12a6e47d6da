import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STREAM_NAMES } from '../../src/contract/config.js';
import { startTestService, TEST_KEY, type TestService } from '../helpers/service.js';
import { TEMPLATE_START } from '../helpers/world-template.js';
import { runCli } from './run-cli.js';

/**
 * What `sync --once` reports (DESIGN 3 `sync`): its `--json` counts are what the cache gained, the passes its
 * catch-ups ran included; an address serving web pages is one line a stream and one hint; `--no-notify` is taken.
 */
let svc: TestService;
const root = mkdtempSync(join(tmpdir(), 'sync-once-report-'));
const env = { XDG_DATA_HOME: join(root, 'data'), XDG_CONFIG_HOME: join(root, 'config') };
const STAMP = '\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z';

beforeAll(async () => {
  svc = await startTestService();
});
afterAll(async () => {
  await svc.close();
  rmSync(root, { recursive: true, force: true });
});

/** The rows of each live history table in the cache file, on a connection of the test's own. */
function historyRows(db: string): Record<string, number> {
  const file = new Database(db, { readonly: true });
  try {
    const count = (table: string) => file.prepare(`SELECT count(*) FROM ${table}`).pluck().get() as number;
    return {
      metar: count('h_metar_observations_history'),
      'mkta-buckets': count('h_mkta_buckets_history'),
      'mktb-buckets': count('h_mktb_buckets_history'),
    };
  } finally {
    file.close();
  }
}

describe('sync --once reports', () => {
  it('--json counts equal to the rows the cache gained, its catch-ups’ passes included, and the service’s instant', async () => {
    const db = join(root, 'counts.db');
    const args = ['sync', '--once', '--json', '--db', db, '--base-url', svc.baseUrl, '--api-key', TEST_KEY];
    const first = await runCli(args, env);
    expect(first.code, first.stderr).toBe(0);
    const before = historyRows(db);
    // 80 world minutes later (the case): new METAR reports and two half hours of bucket snapshots. METAR runs
    // first and its new rows ask the bucket streams for a catch-up pass at once; --once's own pass of them joins
    // after it and finds nothing new: without the catch-ups' counts, the summary said `inserted: 0`
    svc.service.world.advanceTo(TEMPLATE_START + 80 * 60_000);
    const second = await runCli(args, env);
    expect(second.code, second.stderr).toBe(0);
    const after = historyRows(db);
    const summary = JSON.parse(second.stdout);
    for (const stream of ['metar', 'mkta-buckets', 'mktb-buckets'] as const) {
      const gained = (after[stream] ?? 0) - (before[stream] ?? 0);
      expect(gained, stream).toBeGreaterThan(0);
      expect(summary.streams[stream].inserted, stream).toBe(gained);
    }
    expect(Object.keys(summary)).toEqual(['at', 'streams', 'errors']);
    // the service's clock, which the world set to 13:20:00 (and runs at x1 since), as its answers' Date headers
    // tell it: whole seconds, so up to a second behind
    expect(Date.parse(summary.at)).toBeGreaterThanOrEqual(TEMPLATE_START + 80 * 60_000 - 1_000);
  });

  it('an address serving web pages: one line a stream naming the status and content type, then the hint', async () => {
    // the reference service's account pages: HTML at every path under /account
    const account = svc.service.accountUrl.replace(/\/$/, '');
    const out = await runCli(
      ['sync', '--once', '--db', join(root, 'html.db'), '--base-url', account, '--api-key', TEST_KEY],
      env,
    );
    expect(out.code).toBe(1);
    const lines = out.stderr.trimEnd().split('\n');
    // 11 streams, the hint, and the command's own last line
    expect(lines).toHaveLength(STREAM_NAMES.length + 2);
    const streamLine = new RegExp(
      `^${STAMP} sync: ([a-z0-9-]+): GET \\S+: HTTP 404 text/html \\(not the API: \\d+ B of HTML\\)$`,
    );
    const named = lines.slice(0, STREAM_NAMES.length).map((l) => streamLine.exec(l)?.[1]);
    expect(named.sort()).toEqual([...STREAM_NAMES].sort());
    const origin = new URL(account).origin;
    expect(lines[STREAM_NAMES.length]).toMatch(
      new RegExp(
        `^${STAMP} sync: the base URL is probably wrong: every stream answered 404 or HTML from ` +
          `${origin}/account/api/public/v1; it should be the service's address ending with /api/public/v1 ` +
          `\\(as ${origin}/api/public/v1\\)$`,
      ),
    );
    expect(lines.at(-1)).toBe(`svc-monitor: ${STREAM_NAMES.length} stream(s) failed`);
    expect(out.stderr).not.toContain('<');
    expect(out.stderr).not.toContain(TEST_KEY);
  });

  it('takes --no-notify, and both daemons list it in --help', async () => {
    const db = join(root, 'no-notify.db');
    const out = await runCli(
      ['sync', '--once', '--no-notify', '--db', db, '--base-url', svc.baseUrl, '--api-key', TEST_KEY],
      env,
    );
    expect(out.code, out.stderr).toBe(0);
    for (const command of ['sync', 'listen']) {
      const help = await runCli([command, '--help'], env);
      expect(help.stdout, command).toMatch(/^ {2}--no-notify {2,}no desktop notification/m);
    }
  });
});
