import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCache } from '../../src/cache/index.js';
import { CLI, runCli } from './run-cli.js';

/**
 * DESIGN 3's command line: an error is one line on stderr (`svc-monitor: ...`, no `error:` of commander's), exit 2
 * for what was typed wrong and 1 for a condition of the moment; spec 4.4's `since`/`until` read the same on every
 * machine.
 */
const root = mkdtempSync(join(tmpdir(), 'svc-cli-errors-'));
const env = { XDG_DATA_HOME: join(root, 'data'), XDG_CONFIG_HOME: join(root, 'config') };
const db = join(root, 'cache.db');

/** Alerts at instants around 2026-11-20T00:00Z: which of them a bound takes says where it put that midnight. */
const ALERTS = [
  '2026-11-19T10:30:00.000Z', // id 1: before Auckland's midnight of the 20th (19th 11:00Z)
  '2026-11-19T12:00:00.000Z', // id 2: after Auckland's midnight, before UTC's
  '2026-11-20T00:00:00.000Z', // id 3: UTC's midnight itself
  '2026-11-20T09:00:00.000Z', // id 4: after Los Angeles' midnight of the 20th (20th 08:00Z)
];

beforeAll(() => {
  const cache = openCache(db);
  for (const createdAt of ALERTS) {
    cache.alerts.add({ severity: 'info', kind: 'listener-down', message: `at ${createdAt}`, created_at: createdAt });
  }
  cache.close();
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const ids = (ndjson: string) =>
  ndjson
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((line) => (JSON.parse(line) as { id: number }).id);

/** Exit code, and stderr as its lines: one line is what DESIGN 3 promises. */
async function refusal(args: string[], extraEnv: NodeJS.ProcessEnv = {}) {
  const result = await runCli(args, { ...env, ...extraEnv });
  return { code: result.code, lines: result.stderr.split('\n').filter(Boolean), stdout: result.stdout };
}

describe('an instant without an offset is UTC, whatever the machine’s time zone', () => {
  it.each(['UTC', 'Pacific/Auckland', 'America/Los_Angeles'])('TZ=%s', async (tz) => {
    const since = await runCli(['export', 'alerts', '--db', db, '--format', 'ndjson', '--since', '2026-11-20T00:00'], {
      ...env,
      TZ: tz,
    });
    expect(since.code, since.stderr).toBe(0);
    // 2026-11-20T00:00 is 00:00Z: ids 3 and 4, newest first (read in the host zone: 2-4 in Auckland, 4 in LA)
    expect(ids(since.stdout)).toEqual([4, 3]);
    const until = await runCli(
      ['export', 'alerts', '--db', db, '--format', 'ndjson', '--until', '2026-11-19T12:00:00'],
      { ...env, TZ: tz },
    );
    expect(ids(until.stdout)).toEqual([2, 1]);
  });

  it('and what is neither YYYY-MM-DD nor an ISO 8601 instant is refused, naming the option', async () => {
    for (const [option, value] of [
      ['--since', '2026-11'],
      ['--until', '2026-11-20T00'],
      ['--since', '2026-W47-5'],
      ['--since', '20261120'],
      ['--until', '2026-11-20 00:00'],
    ] as const) {
      const refused = await refusal(['export', 'alerts', '--db', db, option, value], { TZ: 'Pacific/Auckland' });
      expect(refused, `export ${option} ${value}`).toEqual({
        code: 2,
        lines: [
          `svc-monitor: option '${option} <date>' is invalid: must be YYYY-MM-DD or an ISO 8601 instant such as 2026-11-20T06:00Z (no offset: UTC) (see svc-monitor export --help)`,
        ],
        stdout: '',
      });
    }
  });

  it('sync --backfill takes the same forms, before any request', async () => {
    expect(await refusal(['sync', '--backfill', 'wxa_history', '--since', '2026-11'])).toEqual({
      code: 2,
      lines: [
        "svc-monitor: option '--since <date>' is invalid: must be YYYY-MM-DD or an ISO 8601 instant such as 2026-11-20T06:00Z (no offset: UTC) (see svc-monitor sync --help)",
      ],
      stdout: '',
    });
  });
});

describe('export checks what it was asked before it reads the cache', () => {
  it('--since after --until is exit 2 naming both, never an empty []', async () => {
    expect(await refusal(['export', 'alerts', '--db', db, '--since', '2026-11-20', '--until', '2026-11-19'])).toEqual({
      code: 2,
      lines: ['svc-monitor: --since is after --until: no row can be in between'],
      stdout: '',
    });
    // instants compare as instants, not as text: 12:00+01:00 is 11:00Z, before 11:30Z
    const inOrder = await runCli(
      ['export', 'alerts', '--db', db, '--since', '2026-11-20T12:00:00+01:00', '--until', '2026-11-20T11:30:00Z'],
      env,
    );
    expect(inOrder.code, inOrder.stderr).toBe(0);
    expect(inOrder.stdout).toBe('[]\n');
    const backwards = await refusal([
      'export',
      'alerts',
      '--db',
      db,
      '--since',
      '2026-11-20T10:00:00-05:00',
      '--until',
      '2026-11-20T14:59:59Z',
    ]);
    expect(backwards.code).toBe(2);
  });

  it('an unknown NAME is said before the cache is looked for', async () => {
    const refused = await refusal(['export', 'nonsense', '--db', join(root, 'no-such.db')]);
    expect(refused.code).toBe(2);
    expect(refused.lines).toHaveLength(1);
    expect(refused.lines[0]).toMatch(/^svc-monitor: unknown export name 'nonsense'; valid names: cities, current, /);
  });
});

describe("commander's complaints are one line, as every other error", () => {
  it('a mistyped command is an unknown command with the nearest name, not the monitor’s complaint', async () => {
    expect(await refusal(['synx', '--once'])).toEqual({
      code: 2,
      lines: ["svc-monitor: unknown command 'synx' (did you mean sync?)"],
      stdout: '',
    });
    expect(await refusal(['server', 'keys', 'craete'])).toEqual({
      code: 2,
      lines: ["svc-monitor: unknown command 'craete' (did you mean create?)"],
      stdout: '',
    });
  });

  it('an unknown option or a missing argument: one line, without error: and with where to look', async () => {
    expect(await refusal(['sync', '--bogus'])).toEqual({
      code: 2,
      lines: ["svc-monitor: unknown option '--bogus' (see svc-monitor sync --help)"],
      stdout: '',
    });
    expect(await refusal(['export'])).toEqual({
      code: 2,
      lines: ["svc-monitor: missing required argument 'name' (see svc-monitor export --help)"],
      stdout: '',
    });
    // the monitor's own options still need no command name
    expect(await refusal(['--offline', '--demo'])).toEqual({
      code: 2,
      lines: ['svc-monitor: --demo and --offline exclude each other'],
      stdout: '',
    });
  });
});

describe('a reader that stops early', () => {
  it('export | head -c 600: the CLI ends quietly, exit 0, as git log | head does', async () => {
    // 4,000 alerts: an export far larger than a pipe's 64 KiB, so the CLI is still writing when the reader leaves
    const big = join(root, 'big.db');
    const cache = openCache(big);
    for (let i = 0; i < 4_000; i++) {
      cache.alerts.add({
        severity: 'info',
        kind: 'listener-down',
        message: `alert ${i} ${'x'.repeat(60)}`,
        created_at: '2026-11-19T10:30:00.000Z',
      });
    }
    cache.close();
    for (const format of ['json', 'ndjson', 'csv']) {
      const child = spawn(process.execPath, [CLI, 'export', 'alerts', '--db', big, '--format', format], {
        env: { ...process.env, ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let read = 0;
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => {
        read += chunk.length;
        // `head -c 600`: takes what it wants, then closes its end of the pipe
        if (read >= 600) child.stdout.destroy();
      });
      child.stderr.on('data', (d) => {
        stderr += d;
      });
      const code = await new Promise<number | null>((done) => child.on('close', done));
      expect({ format, code, stderr }).toEqual({ format, code: 0, stderr: '' });
    }
  });
});

describe('a cache locked by another process', () => {
  it('is exit 1, a condition of the moment, with one line naming the file', async () => {
    const holder = new Database(db);
    try {
      // exclusive locking mode keeps the lock until the connection closes: no other process can even read
      holder.pragma('locking_mode = EXCLUSIVE');
      holder.exec('BEGIN EXCLUSIVE');
      const refused = await refusal(['export', 'alerts', '--db', db]);
      expect(refused.code).toBe(1);
      expect(refused.lines).toHaveLength(1);
      expect(refused.lines[0]).toBe(`svc-monitor: the cache ${db} is busy (locked by another process); try again`);
    } finally {
      holder.close();
    }
    const free = await runCli(['export', 'alerts', '--db', db], env);
    expect(free.code, free.stderr).toBe(0);
  });
});
