import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { readFileIdentity } from '../../src/sqlite/file-identity.js';

describe('readFileIdentity', () => {
  it('says a new database is unmarked, unversioned and empty', () => {
    expect(readFileIdentity(new Database(':memory:'))).toEqual({
      applicationId: 0,
      version: 0,
      tables: [],
      names: [],
    });
  });

  it('reads the header marks and names the tables apart from the rest of the schema', () => {
    const db = new Database(':memory:');
    db.exec('CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT); CREATE INDEX notes_body ON notes (body)');
    db.exec('CREATE TABLE authors (id INTEGER PRIMARY KEY); CREATE VIEW v AS SELECT 1');
    db.pragma('application_id = 42');
    db.pragma('user_version = 3');
    expect(readFileIdentity(db)).toEqual({
      applicationId: 42,
      version: 3,
      tables: ['authors', 'notes'],
      names: ['authors', 'notes', 'notes_body', 'v'],
    });
  });
});
