import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { readFileIdentity } from '../../src/sqlite/file-identity.js';
import { openDatabase, type Schema, type SqliteDb } from '../../src/sqlite/open-database.js';
import { statementCache } from '../../src/sqlite/statement-cache.js';

const MIGRATIONS = ['CREATE TABLE a (id INTEGER PRIMARY KEY)', 'CREATE TABLE b (id INTEGER PRIMARY KEY)'];

/** A schema whose rules are recorded: what each identification saw. */
function schema(seen: { version: number; id: number }[] = []): Schema {
  return {
    applicationId: 7,
    migrations: MIGRATIONS,
    identify(db) {
      const { applicationId, version } = readFileIdentity(db);
      seen.push({ version, id: applicationId });
      if (applicationId !== 0 && applicationId !== 7) throw new Error('not ours');
      return { version, marked: applicationId === 7 };
    },
  };
}

describe('openDatabase', () => {
  it('identifies a new database, sets its pragmas, migrates it and marks it, identifying again under the lock', () => {
    const seen: { version: number; id: number }[] = [];
    const checked: number[] = [];
    const db = openDatabase(':memory:', schema(seen), {
      wal: false,
      pragmas: ['foreign_keys = ON'],
      beforeWrite: (_, version) => checked.push(version),
    });
    expect(readFileIdentity(db)).toMatchObject({ applicationId: 7, version: 2, tables: ['a', 'b'] });
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(seen).toEqual([
      { version: 0, id: 0 },
      { version: 0, id: 0 },
    ]);
    expect(checked).toEqual([0]);
  });

  it('passes the identification’s refusal on, having written nothing', () => {
    const refuse: Schema = {
      ...schema(),
      identify: () => {
        throw new Error('it is an SQLite database of another program');
      },
    };
    expect(() => openDatabase(':memory:', refuse, { wal: false, pragmas: [] })).toThrow('another program');
  });

  it('words a failed migration as the caller says, and leaves it unchanged otherwise', () => {
    const broken: Schema = { ...schema(), migrations: ['CREATE TABLE a (', ...MIGRATIONS] };
    expect(() =>
      openDatabase(':memory:', broken, {
        wal: false,
        pragmas: [],
        migrationFailure: (error) => new Error(`cannot be upgraded: ${(error as Error).message}`),
      }),
    ).toThrow(/^cannot be upgraded: /);
    expect(() => openDatabase(':memory:', broken, { wal: false, pragmas: [] })).toThrow(Database.SqliteError);
  });
});

describe('statementCache', () => {
  it('prepares each SQL text once and hands the same statement back', () => {
    const db: SqliteDb = new Database(':memory:');
    const prepared = statementCache(db);
    const first = prepared('SELECT 1');
    expect(prepared('SELECT 1')).toBe(first);
    expect(prepared('SELECT 2')).not.toBe(first);
  });
});
