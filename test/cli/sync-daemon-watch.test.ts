import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { STREAM_NAMES } from '../../src/contract/config.js';
import { type RunningService, startService } from '../../src/server/service.js';
import { waitUntil } from '../helpers/listener-harness.js';
import { startTestService, TEST_KEY, type TestService } from '../helpers/service.js';
import { CLI } from './run-cli.js';

/**
 * DESIGN 3 `sync` as a daemon is watched: against a real reference service stopped and started again on the same
 * port and store, every stderr line starts with its instant, each stream says its fault once however many passes
 * fail while the service is down, and `recovered after N failed passes` once it answers again; `--json` prints one
 * parseable line a pass, each with `at`, whose counts add up to the rows the cache holds.
 */
const root = mkdtempSync(join(tmpdir(), 'sync-daemon-watch-'));
let svc: TestService | undefined;
let restarted: RunningService | undefined;
let daemon: ChildProcess | undefined;
afterAll(async () => {
  daemon?.kill('SIGKILL');
  await restarted?.close();
  await svc?.close().catch(() => undefined);
  rmSync(root, { recursive: true, force: true });
});

const STAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z sync: /;

interface PassLine {
  at: string;
  streams: Record<string, { fetched: number; inserted: number; updated: number }>;
  errors: { stream: string; error: string; kind: string }[];
}

/** The daemon's stdout, one JSON object a line; a line not parseable fails the test. */
const passLines = (stdout: string): PassLine[] =>
  stdout
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as PassLine);

/** Stderr lines of one stream's fault (its own lines, not a recovery). */
const faultLines = (stderr: string, stream: string) =>
  stderr.split('\n').filter((l) => l.includes(` sync: ${stream}: `) && !l.includes(': recovered after '));

/** `sync` as a daemon with the config's intervals and the environment's service, its output as it comes. */
function startDaemon(args: string[], env: NodeJS.ProcessEnv) {
  const child = spawn(process.execPath, [CLI, 'sync', ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  daemon = child;
  const out = { stdout: '', stderr: '' };
  child.stdout.on('data', (d) => {
    out.stdout += d;
  });
  child.stderr.on('data', (d) => {
    out.stderr += d;
  });
  const exited = new Promise<number | null>((done) => child.once('close', done));
  return { child, out, exited };
}

/** The text up to its last complete line. */
const complete = (text: string) => text.slice(0, text.lastIndexOf('\n') + 1);

/** A config dir whose file polls every stream every second. */
function everySecond(name: string): string {
  const config = join(root, name);
  mkdirSync(join(config, 'svc-monitor'), { recursive: true });
  writeFileSync(
    join(config, 'svc-monitor', 'config.json'),
    JSON.stringify({ intervals: Object.fromEntries(STREAM_NAMES.map((s) => [s, 1])) }),
    { mode: 0o600 },
  );
  return config;
}

describe('the sync daemon, watched', () => {
  it('stamps its lines, says a fault once a stream while the service is down, a recovery once it is back', async () => {
    svc = await startTestService({ tickMs: 24 * 3_600_000 });
    // every stream every second: while the service is down, each fails pass after pass
    const config = everySecond('config');
    const db = join(root, 'cache.db');
    const env = { ...process.env, SVC_BASE_URL: svc.baseUrl, SVC_API_KEY: TEST_KEY, XDG_CONFIG_HOME: config };
    const { child, out, exited } = startDaemon(['--json', '--no-notify', '--db', db], env);

    // every stream answered once
    await waitUntil('a pass of every stream', () => {
      const answered = new Set(passLines(complete(out.stdout)).flatMap((p) => Object.keys(p.streams)));
      return STREAM_NAMES.every((s) => answered.has(s)) ? true : undefined;
    });

    // the service stops; its store and port are kept for the restart
    const { port, dataDir } = { port: svc.service.port, dataDir: svc.dataDir };
    await svc.service.close();
    const linesBefore = passLines(complete(out.stdout)).length;
    const stderrBefore = out.stderr.length;
    // until every stream failed in at least three pass lines: at least three failed passes each
    await waitUntil('three failed passes of every stream', () => {
      const failedIn = new Map<string, number>();
      for (const pass of passLines(complete(out.stdout)).slice(linesBefore))
        for (const e of pass.errors) failedIn.set(e.stream, (failedIn.get(e.stream) ?? 0) + 1);
      return STREAM_NAMES.every((s) => (failedIn.get(s) ?? 0) >= 3) ? true : undefined;
    });
    const whileDown = complete(out.stderr.slice(stderrBefore));
    // no flood: one line a stream for all its failed passes
    for (const stream of STREAM_NAMES) expect(faultLines(whileDown, stream), whileDown).toHaveLength(1);

    // the service again, on the same port over the same store
    restarted = await startService({
      dataDir,
      port,
      apiKey: TEST_KEY,
      rateLimitPerMinute: 1_000_000,
      tickMs: 24 * 3_600_000,
      logLevel: 'silent',
    });
    const recovered = (stream: string) =>
      out.stderr.split('\n').filter((l) => l.includes(` sync: ${stream}: recovered after `));
    await waitUntil('every stream recovered', () =>
      STREAM_NAMES.every((s) => recovered(s).length > 0) ? true : undefined,
    );
    // a pass of every stream after the recoveries: nothing more is said of them
    const afterRecovery = passLines(complete(out.stdout)).length;
    await waitUntil('a pass of every stream after the recovery', () => {
      const answered = new Set(
        passLines(complete(out.stdout))
          .slice(afterRecovery)
          .flatMap((p) => Object.keys(p.streams)),
      );
      return STREAM_NAMES.every((s) => answered.has(s)) ? true : undefined;
    });
    child.kill('SIGTERM');
    expect(await exited, out.stderr).toBe(0);

    const stderr = out.stderr.trimEnd().split('\n');
    for (const line of stderr) expect(line).toMatch(STAMP);
    for (const stream of STREAM_NAMES) {
      // one recovery line, after at least the three failed passes waited for, within the minutes the test ran
      expect(recovered(stream), stream).toHaveLength(1);
      const [, passes] =
        /recovered after (\d+) failed passes \((\d+m\d\ds|\d+s)\)$/.exec(recovered(stream)[0] ?? '') ?? [];
      expect(Number(passes), recovered(stream)[0]).toBeGreaterThanOrEqual(3);
      expect(faultLines(out.stderr, stream), stream).toHaveLength(1);
    }

    // every stdout line one pass, with the service's instant
    const passes = passLines(out.stdout);
    for (const pass of passes) {
      expect(Object.keys(pass)).toEqual(['at', 'streams', 'errors']);
      expect(pass.at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    }
    // what the lines say was inserted is what the cache holds: the history tables of the streams of one table each
    const file = new Database(db, { readonly: true });
    try {
      for (const [stream, table] of [
        ['metar', 'h_metar_observations_history'],
        ['mkta-buckets', 'h_mkta_buckets_history'],
        ['mktb-buckets', 'h_mktb_buckets_history'],
      ] as const) {
        const inserted = passes.reduce((sum, p) => sum + (p.streams[stream]?.inserted ?? 0), 0);
        const rows = file.prepare(`SELECT count(*) FROM ${table}`).pluck().get();
        expect(inserted, stream).toBe(rows);
      }
    } finally {
      file.close();
    }
  });
});

describe('the sync daemon at an address serving web pages', () => {
  it('says each stream’s fault once and the base URL hint once, however many passes fail', async () => {
    const pages = await startTestService({ tickMs: 24 * 3_600_000 });
    try {
      const account = pages.service.accountUrl.replace(/\/$/, '');
      const env = {
        ...process.env,
        SVC_BASE_URL: account,
        SVC_API_KEY: TEST_KEY,
        XDG_CONFIG_HOME: everySecond('pages'),
      };
      const { child, out, exited } = startDaemon(['--json', '--db', join(root, 'pages.db')], env);
      const hint = / sync: the base URL is probably wrong: every stream answered 404 or HTML from /;
      await waitUntil('the hint', () => (hint.test(out.stderr) ? true : undefined));
      // five more passes, every stream failing in each
      const seen = passLines(complete(out.stdout)).length;
      await waitUntil('five more passes', () =>
        passLines(complete(out.stdout)).length >= seen + 5 ? true : undefined,
      );
      child.kill('SIGTERM');
      expect(await exited, out.stderr).toBe(0);
      const lines = out.stderr.trimEnd().split('\n');
      for (const line of lines) expect(line).toMatch(STAMP);
      // the polling line, a line a stream, the hint: nothing more
      expect(lines, out.stderr).toHaveLength(1 + STREAM_NAMES.length + 1);
      expect(lines.filter((l) => hint.test(l))).toHaveLength(1);
      for (const stream of STREAM_NAMES) {
        const [line] = faultLines(out.stderr, stream);
        expect(line, stream).toMatch(/: HTTP 404 text\/html \(not the API: \d+ B of HTML\)$/);
      }
      for (const pass of passLines(out.stdout)) {
        expect(pass.streams).toEqual({});
        expect(pass.errors.length).toBeGreaterThan(0);
      }
    } finally {
      await pages.close();
    }
  });
});
