import {
  chmodSync,
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startTestService, TEST_KEY, type TestService } from '../helpers/service.js';
import { damagePage } from './damaged-cache.js';
import { runCli, startCli } from './run-cli.js';
import { heldToPermissionBits, ownedTempDir, runCliAsUser } from './unprivileged.js';

let svc: TestService;
const root = ownedTempDir('svc-cache-files-');
const env = { XDG_DATA_HOME: join(root, 'data'), XDG_CONFIG_HOME: join(root, 'config'), HOME: root };
/** A cache filled by one real `sync --once`; each test works on its own copy. */
const base = join(root, 'base', 'cache.db');
const SECRET = 'webhook-secret-of-the-cache-file-tests';

const lines = (text: string) => text.trim().split('\n').filter(Boolean);
const sync = (db: string) => ['sync', '--once', '--db', db, '--base-url', svc.baseUrl, '--api-key', TEST_KEY];
const listen = (db: string) => ['listen', '--db', db, '--port', '0', '--secret', SECRET, '--no-notify'];

/** A copy of the base cache in a folder of its own. */
function cacheCopy(name: string): string {
  const dir = join(root, name);
  mkdirSync(dir);
  const file = join(dir, 'cache.db');
  copyFileSync(base, file);
  return file;
}

beforeAll(async () => {
  svc = await startTestService();
  const filled = await runCli(sync(base), env);
  expect(filled.code, filled.stderr).toBe(0);
  expect(existsSync(`${base}-wal`)).toBe(false);
});
afterAll(async () => {
  await svc?.close();
  rmSync(root, { recursive: true, force: true });
});

describe('a cache the monitor cannot write', () => {
  it('is one to the CLI under test, root or not: it is held to the permission bits (unprivileged.ts)', async () => {
    const file = join(cacheCopy('held'), '..', 'probe');
    writeFileSync(file, '');
    chmodSync(file, 0o444);
    expect(await heldToPermissionBits(file)).toBe(true);
    chmodSync(file, 0o644);
    expect(await heldToPermissionBits(file)).toBe(false);
  });

  it('listen and sync on a read-only cache file: exit 2 naming the file, before serving or syncing anything', async () => {
    const file = cacheCopy('read-only-file');
    chmodSync(file, 0o444);
    const listened = await runCliAsUser(listen(file), env, /listening on/);
    expect(listened.served, listened.stdout).toBe(false);
    expect(listened.code).toBe(2);
    expect(lines(listened.stderr)).toEqual([`svc-monitor: ${file} cannot be written: the file is read-only`]);
    const synced = await runCliAsUser(sync(file), env);
    expect(synced.code).toBe(2);
    expect(lines(synced.stderr)).toEqual([`svc-monitor: ${file} cannot be written: the file is read-only`]);
    expect(listened.stderr + synced.stderr + synced.stdout).not.toContain(TEST_KEY);
    expect(listened.stderr).not.toContain(SECRET);
  });

  it('listen and sync in a read-only folder, where the -wal and -shm cannot be made: exit 2 naming the file', async () => {
    const file = cacheCopy('read-only-folder');
    const folder = join(root, 'read-only-folder');
    chmodSync(folder, 0o555);
    try {
      const expected = `svc-monitor: ${file} cannot be written: SQLite needs to create cache.db-wal and cache.db-shm in ${folder}, which is read-only`;
      const listened = await runCliAsUser(listen(file), env, /listening on/);
      expect(listened.served, listened.stdout).toBe(false);
      expect(listened.code).toBe(2);
      expect(lines(listened.stderr)).toEqual([expected]);
      const synced = await runCliAsUser(sync(file), env);
      expect(synced.code).toBe(2);
      expect(lines(synced.stderr)).toEqual([expected]);
    } finally {
      chmodSync(folder, 0o755);
    }
  });

  it('the same user on a writable copy listens and syncs (what is refused is the file, not the user)', async () => {
    const file = cacheCopy('writable');
    const listened = await runCliAsUser(listen(file), env, /listening on/);
    expect(listened.served, listened.stderr).toBe(true);
    const synced = await runCliAsUser(sync(file), env);
    expect(synced.code, synced.stderr).toBe(0);
  });
});

describe('files that are not the cache', () => {
  it('another program’s SQLite file: sync, listen and export refuse it (exit 2) and leave every byte as it was', async () => {
    const file = join(root, 'notes.db');
    const notes = new Database(file);
    notes.exec("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT); INSERT INTO notes (body) VALUES ('keep me')");
    notes.close();
    const before = readFileSync(file);
    for (const args of [sync(file), listen(file), ['export', 'cities', '--db', file]]) {
      const refused = await runCli(args, env);
      expect(refused.code, args.join(' ')).toBe(2);
      expect(lines(refused.stderr)).toEqual([
        `svc-monitor: ${file} is not a usable svc-monitor cache: it is an SQLite database of another program (its tables: notes)`,
      ]);
      expect(readFileSync(file).equals(before), `${args[0]} changed the file`).toBe(true);
      expect(existsSync(`${file}-wal`)).toBe(false);
    }
  });

  it('a server store given as --db is called a server store, not a cache, and left as it was', async () => {
    // the reference service's own store (tables meta, api_keys, webhooks), and one marked with its application_id
    const legacy = join(root, 'store', 'server.db');
    cpSync(join(inject('templateDir'), 'server.db'), legacy);
    const marked = join(root, 'marked.db');
    const db = new Database(marked);
    db.pragma(`application_id = ${0x53564d53}`);
    db.exec('CREATE TABLE anything (x)');
    db.close();
    for (const file of [legacy, marked]) {
      const before = readFileSync(file);
      for (const args of [sync(file), ['export', 'alerts', '--db', file]]) {
        const refused = await runCli(args, env);
        expect(refused.code, args.join(' ')).toBe(2);
        expect(refused.stderr).toMatch(/is a svc-monitor server store, not a cache/);
        expect(lines(refused.stderr)).toHaveLength(1);
        expect(refused.stderr).not.toMatch(/newer/);
        expect(readFileSync(file).equals(before)).toBe(true);
      }
    }
  });
});

describe('reading commands never create a cache', () => {
  it('export with a mistyped --db, or with no cache at the default place: exit 2 "no cache at PATH", nothing made', async () => {
    const typo = join(root, 'tpyo', 'nested', 'cache.db');
    const exported = await runCli(['export', 'cities', '--db', typo], env);
    expect(exported.code).toBe(2);
    expect(exported.stdout).toBe('');
    expect(lines(exported.stderr)).toEqual([
      `svc-monitor: no cache at ${typo}: run svc-monitor sync first, or pass --db`,
    ]);
    expect(existsSync(join(root, 'tpyo'))).toBe(false);

    const home = join(root, 'empty-home');
    const fresh = { XDG_DATA_HOME: join(home, 'data'), XDG_CONFIG_HOME: join(home, 'config') };
    const byDefault = await runCli(['export', 'alerts'], fresh);
    expect(byDefault.code).toBe(2);
    expect(byDefault.stderr).toContain(`no cache at ${join(home, 'data', 'svc-monitor', 'cache.db')}`);
    expect(existsSync(home)).toBe(false);
  });
});

describe('permissions of a new cache', () => {
  it('sync makes its folders 0700 and the cache 0600; the -wal and -shm of a running listener are 0600 too', async () => {
    const file = join(root, 'fresh', 'monitor', 'cache.db');
    const synced = await runCli(sync(file), env);
    expect(synced.code, synced.stderr).toBe(0);
    for (const dir of [join(root, 'fresh'), join(root, 'fresh', 'monitor')]) {
      expect((statSync(dir).mode & 0o777).toString(8), dir).toBe('700');
    }
    expect((statSync(file).mode & 0o777).toString(8)).toBe('600');

    const listener = await startCli(listen(file), /listening on/, env);
    try {
      for (const side of [`${file}-wal`, `${file}-shm`]) {
        expect((statSync(side).mode & 0o777).toString(8), side).toBe('600');
      }
    } finally {
      listener.child.kill('SIGTERM');
      expect(await listener.exited).toBe(0);
    }
  });
});

describe('a damaged cache', () => {
  it('sync and listen refuse to write into it (exit 2, the file named as damaged, its bytes unchanged); export reads what it can', async () => {
    const file = cacheCopy('damaged');
    const intact = await runCli(['export', 'fusion-locks', '--db', file], env);
    expect(intact.code).toBe(0);
    damagePage(file, 'cities');
    const before = readFileSync(file);
    for (const args of [sync(file), listen(file)]) {
      const refused = await runCli(args, env);
      expect(refused.code, args.join(' ')).toBe(2);
      expect(lines(refused.stderr)).toHaveLength(1);
      expect(refused.stderr).toMatch(
        new RegExp(`^svc-monitor: ${file.replaceAll('.', '\\.')} is damaged \\(quick_check: .+\\): nothing is written`),
      );
      expect(readFileSync(file).equals(before), `${args[0]} changed the damaged file`).toBe(true);
    }
    // a reader shows what is intact, and says which file is damaged when it meets the damage
    const locks = await runCli(['export', 'fusion-locks', '--db', file], env);
    expect(locks.code).toBe(0);
    expect(locks.stdout).toBe(intact.stdout);
    const cities = await runCli(['export', 'cities', '--db', file], env);
    expect(cities.code).toBe(2);
    expect(lines(cities.stderr)).toEqual([
      `svc-monitor: ${file} is damaged (database disk image is malformed): nothing is written to it; export what can still be read, then move it away`,
    ]);
    expect(readFileSync(file).equals(before)).toBe(true);
  });
});
