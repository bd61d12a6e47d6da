import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { UpsertWriter } from '../../../src/cache/db/upsert-writer.js';

/** A table keyed like the strategy tables (id) and one keyed like the forecasts (city, layer, instant). */
function open() {
  const db = new Database(':memory:');
  db.exec('CREATE TABLE s (id INTEGER PRIMARY KEY, open INTEGER, json TEXT NOT NULL)');
  db.exec(
    'CREATE TABLE f (city_id TEXT, layer TEXT, ms INTEGER, json TEXT NOT NULL, PRIMARY KEY (city_id, layer, ms))',
  );
  const s = new UpsertWriter(db, 's', ['id', 'open', 'json'], ['id'], 'upsert', 'id');
  const f = new UpsertWriter(
    db,
    'f',
    ['city_id', 'layer', 'ms', 'json'],
    ['city_id', 'layer', 'ms'],
    'upsert',
    'city_id',
  );
  return { db, s, f };
}
const json = (db: Database.Database, table: string) =>
  db.prepare(`SELECT json FROM ${table} ORDER BY rowid`).pluck().all() as string[];

// the counts `sync --json` reports and the change events the TUI hears come from here
describe('the upsert writer', () => {
  it('inserts, leaves equal rows alone, updates changed ones, and says which', () => {
    const { db, s } = open();
    expect(s.write([1, 1, 'a1', 2, 1, 'b1', 3, 1, 'c1'], [1, 2, 3])).toEqual({
      inserted: 3,
      updated: 0,
      unchanged: 0,
      changed: [1, 2, 3],
    });
    // a re-poll of the same rows: nothing written
    expect(s.write([1, 1, 'a1', 2, 1, 'b1', 3, 1, 'c1'], [1, 2, 3])).toEqual({
      inserted: 0,
      updated: 0,
      unchanged: 3,
      changed: [],
    });
    // 2 settles (open 0, new json), 4 is new, 1 and 3 as they were
    const result = s.write([1, 1, 'a1', 2, 0, 'b2', 3, 1, 'c1', 4, 1, 'd1'], [1, 2, 3, 4]);
    expect(result.inserted).toBe(1);
    expect(result.updated).toBe(1);
    expect(result.unchanged).toBe(2);
    expect([...result.changed].sort()).toEqual([2, 4]);
    expect(json(db, 's')).toEqual(['a1', 'b2', 'c1', 'd1']);
    expect(db.prepare('SELECT open FROM s WHERE id = 2').pluck().get()).toBe(0);
    // without listeners (no ids): the same counts
    expect(s.write([1, 0, 'a2', 2, 0, 'b2'])).toEqual({ inserted: 0, updated: 1, unchanged: 1, changed: [] });
  });

  it('a key twice in one write ends with its last row, as rows written in order would', () => {
    const { db, s } = open();
    s.write([7, 1, 'x1']);
    const result = s.write([7, 1, 'x2', 8, 1, 'y1', 7, 0, 'x3']);
    expect(json(db, 's')).toEqual(['x3', 'y1']);
    // written in order: 8 inserted; 7 updated twice (x1 -> x2, then x2 -> x3), each write counted
    expect(result.inserted).toBe(1);
    expect(result.updated).toBe(2);
  });

  it('compares a one-column key with what is stored, chunk by chunk, across chunks of 100 rows', () => {
    const { db, s } = open();
    const rows = (n: number) => Array.from({ length: n }, (_, i) => [i + 1, 1, `v${i + 1}`]);
    expect(s.write(rows(250).flat()).inserted).toBe(250);
    // ids 5 (first chunk) and 150 (second) change, 251 and 252 are new (third chunk, beside 48 unchanged rows)
    const next = rows(252);
    next[4] = [5, 0, 'changed5'];
    next[149] = [150, 0, 'changed150'];
    const ids = next.map((r) => r[0] as number);
    const result = s.write(next.flat(), ids);
    expect(result).toEqual({ inserted: 2, updated: 2, unchanged: 248, changed: [5, 150, 251, 252] });
    expect(db.prepare('SELECT json FROM s WHERE id IN (5, 150, 251, 252) ORDER BY id').pluck().all()).toEqual([
      'changed5',
      'changed150',
      'v251',
      'v252',
    ]);
    expect(db.prepare('SELECT count(*) FROM s WHERE open = 0').pluck().get()).toBe(2);
  });

  it('matches a composite key on every column, across chunks of 100 rows', () => {
    const { db, f } = open();
    const rows = (tag: string) =>
      Array.from({ length: 150 }, (_, i) => [`c${i % 3}`, i % 2 === 0 ? 'pro' : 'ens', i, `${tag}${i}`]).flat();
    expect(f.write(rows('v')).inserted).toBe(150);
    // only row 120 changes: one update in the second chunk
    const next = rows('v');
    next[120 * 4 + 3] = 'changed';
    expect(f.write(next)).toEqual({ inserted: 0, updated: 1, unchanged: 149, changed: [] });
    expect(db.prepare("SELECT json FROM f WHERE city_id = 'c0' AND layer = 'pro' AND ms = 120").pluck().get()).toBe(
      'changed',
    );
    expect(db.prepare("SELECT count(*) FROM f WHERE json LIKE 'v%'").pluck().get()).toBe(149);
  });
});
