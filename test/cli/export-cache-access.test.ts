import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCache } from '../../src/cache/index.js';
import { HandCache, LONDON, NYC } from '../helpers/cache-builder.js';
import { CLI, type CliResult } from './run-cli.js';
import { heldToPermissionBits, ownedTempDir, runCliAsUser } from './unprivileged.js';

/**
 * `export` only reads (DESIGN 3): it opens a cache in a folder it cannot write (a read-only mount, a backup kept
 * read-only), and answers an argument error before it loads the cache (SQLite) and the board.
 */
const root = ownedTempDir('svc-export-access-');
const env = { XDG_DATA_HOME: join(root, 'data'), XDG_CONFIG_HOME: join(root, 'config'), HOME: root, SVC_DB: '' };
const shelf = join(root, 'shelf');
const db = join(shelf, 'cache.db');

beforeAll(() => {
  mkdirSync(shelf);
  const cache = openCache(db);
  new HandCache(cache).cities(NYC, LONDON);
  cache.close();
  chmodSync(shelf, 0o555);
});
afterAll(() => {
  chmodSync(shelf, 0o755);
  rmSync(root, { recursive: true, force: true });
});

describe('export of a cache in a read-only folder', () => {
  it('reads it, and leaves the folder as it was', async () => {
    // as root the CLI runs without the capabilities that write through modes (unprivileged.ts): the test means it
    expect(await heldToPermissionBits(join(shelf, 'probe'))).toBe(true);
    const before = readdirSync(shelf);
    const out = await runCliAsUser(['export', 'cities', '--db', db, '--format', 'ndjson'], env);
    expect(out.code, out.stderr).toBe(0);
    expect(
      out.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line).city_id),
    ).toEqual(['london', 'nyc']);
    expect(readdirSync(shelf)).toEqual(before);
    const check = await runCliAsUser(['cache', 'check', '--db', db], env);
    expect([check.code, check.stdout]).toEqual([0, 'ok\n']);
  });
});

const RECORDER = fileURLToPath(new URL('./fixtures/record-modules.mjs', import.meta.url));

/** The built CLI with the module recorder (startup-modules.test.ts): its result and whether it loaded SQLite. */
function recorded(args: string[]): Promise<CliResult & { sqlite: boolean }> {
  const file = join(root, `modules-${args.join('-').replace(/\W/g, '')}.txt`);
  const child = spawn(process.execPath, ['--import', RECORDER, CLI, ...args], {
    env: { ...process.env, ...env, RECORD_MODULES: file },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const out = { stdout: '', stderr: '' };
  child.stdout.on('data', (d) => {
    out.stdout += d;
  });
  child.stderr.on('data', (d) => {
    out.stderr += d;
  });
  return new Promise((resolve) =>
    child.on('close', (code) =>
      resolve({ code, ...out, sqlite: readFileSync(file, 'utf8').includes('node_modules/better-sqlite3/') }),
    ),
  );
}

describe('an argument error of export', () => {
  it('is answered before the cache and the board load', async () => {
    for (const [args, line] of [
      [
        ['export', 'board', '--at', 'not-a-time', '--db', db],
        '--at must be an ISO 8601 instant with its offset, e.g. 2026-11-20T15:00:00Z',
      ],
      [
        ['export', 'board', '--date', '2026-13-01', '--db', db],
        '--date must be a market day, YYYY-MM-DD, e.g. 2026-11-20',
      ],
      [['export', 'cities', '--format', 'xml', '--db', db], '--format must be one of json, ndjson, csv'],
    ] as const) {
      const run = await recorded([...args]);
      expect([run.code, run.stdout, run.stderr], args.join(' ')).toEqual([2, '', `svc-monitor: ${line}\n`]);
      expect(run.sqlite, args.join(' ')).toBe(false);
    }
    // the recorder sees SQLite when an export runs
    expect((await recorded(['export', 'board', '--at', '2099-01-01T00:00:00Z', '--db', db])).sqlite).toBe(true);
  });
});
