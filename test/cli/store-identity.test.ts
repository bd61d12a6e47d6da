import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { openCache } from '../../src/cache/index.js';
import { TEMPLATE_START } from '../helpers/world-template.js';
import { runCli } from './run-cli.js';

const root = mkdtempSync(join(tmpdir(), 'svc-identity-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A data dir whose `server.db` is made by `make` (given the file's path). */
function dataDirWith(name: string, make: (file: string) => void): { dataDir: string; file: string } {
  const dataDir = join(root, name);
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, 'server.db');
  make(file);
  return { dataDir, file };
}

/** An SQLite file of some other program: a rollback journal, one table, one row. */
function foreignDb(file: string, pragmas: string[] = []): void {
  const db = new Database(file);
  for (const pragma of pragmas) db.pragma(pragma);
  db.exec("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT); INSERT INTO notes (body) VALUES ('keep me')");
  db.close();
}

const usable = (dataDir: string) => `svc-monitor: the data dir ${dataDir} does not hold a usable store`;

describe('a server.db that is not a server store', () => {
  const cases: [string, (file: string) => void, string][] = [
    ['plain', (file) => foreignDb(file), 'it is an SQLite database of another program'],
    [
      'other-id',
      (file) => foreignDb(file, ['application_id = 1234567', 'user_version = 1']),
      'it is an SQLite database of another program (application_id 0x0012d687)',
    ],
    [
      'cache',
      (file) => {
        openCache(file).close();
      },
      "it is the monitor's cache, not a server store",
    ],
    [
      'newer',
      (file) => foreignDb(file, ['application_id = 1398164819', 'user_version = 99']),
      'store version 99 is newer than this program (3)',
    ],
  ];

  it.each(cases)(
    '%s: refused by server and admin commands alike with exit 2 saying what it is, its bytes untouched',
    async (name, make, what) => {
      const { dataDir, file } = dataDirWith(name, make);
      const before = readFileSync(file);
      for (const args of [
        ['server', '--port', '0', '--data-dir', dataDir],
        ['server', 'keys', 'list', '--data-dir', dataDir],
      ]) {
        const result = await runCli(args);
        expect(result.code, args.join(' ')).toBe(2);
        expect(result.stderr).toBe(`${usable(dataDir)} (${file}: ${what})\n`);
        expect(readFileSync(file).equals(before), 'the file is byte for byte as it was').toBe(true);
        expect(existsSync(`${file}-wal`)).toBe(false);
      }
    },
  );
});

describe('a store made by an earlier version (application_id 0)', () => {
  it('is recognised by its schema, adopted (given the store id, made private) and keeps its world', async () => {
    const { dataDir, file } = dataDirWith('legacy', () => undefined);
    rmSync(dataDir, { recursive: true });
    cpSync(inject('templateDir'), dataDir, { recursive: true });
    const legacy = new Database(file);
    legacy.pragma('application_id = 0');
    legacy.close();
    chmodSync(file, 0o644);

    const listed = await runCli(['server', 'keys', 'list', '--json', '--data-dir', dataDir]);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toBe('[]\n');

    const db = new Database(file, { readonly: true });
    expect(db.pragma('application_id', { simple: true })).toBe(0x53564d53);
    expect(db.pragma('user_version', { simple: true })).toBe(3);
    expect(db.prepare("SELECT value FROM meta WHERE key = 'world_processed_until'").pluck().get()).toBe(
      // the template world's own instant: the copy still holds the world it was made with
      String(TEMPLATE_START),
    );
    db.close();
    expect((statSync(file).mode & 0o777).toString(8)).toBe('600');
  });
});

describe('an SQLite file of another program left with a WAL its program has not checkpointed', () => {
  it('is refused without checkpointing that WAL into it', async () => {
    const { dataDir, file } = dataDirWith('hot-wal', () => undefined);
    // the other program's state as a crash leaves it: committed rows still in the -wal only
    const live = new Database(join(root, 'live.db'));
    live.pragma('journal_mode = WAL');
    live.pragma('wal_autocheckpoint = 0');
    live.exec("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT); INSERT INTO notes (body) VALUES ('in the wal')");
    for (const suffix of ['', '-wal']) cpSync(join(root, `live.db${suffix}`), `${file}${suffix}`);
    live.close();
    const before = readFileSync(file);
    const walBefore = readFileSync(`${file}-wal`);

    const result = await runCli(['server', '--port', '0', '--data-dir', dataDir]);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(`${usable(dataDir)} (${file}: it is an SQLite database of another program)\n`);
    expect(readFileSync(file).equals(before), 'the file is byte for byte as it was').toBe(true);
    expect(readFileSync(`${file}-wal`).equals(walBefore), 'its WAL too').toBe(true);
  });
});
