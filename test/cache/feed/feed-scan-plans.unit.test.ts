import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../../../src/cache/db/migrations.js';
import { DERIVED_INSTANT_SOURCES } from '../../../src/cache/feed/derived-instant-sources.js';
import { type ScanFrom, scanChunkSql } from '../../../src/cache/feed/derived-scan.js';

/** The plan SQLite makes of a query over the cache's schema, its parameters all bound. */
function planOf(sql: string): string[] {
  const db = new Database(':memory:');
  try {
    for (const migration of MIGRATIONS) db.exec(migration);
    const n = sql.split('?').length - 1;
    const rows = db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...Array(n).fill(1)) as { detail: string }[];
    return rows.map((r) => r.detail);
  } finally {
    db.close();
  }
}

describe("the Signals feed's chunked scans", () => {
  it('start each chunk by a seek of the index that orders the scan, the rest of a tie by (proxy, key)', () => {
    const plans: Record<string, string[]> = {};
    for (const s of DERIVED_INSTANT_SOURCES)
      for (const older of [true, false])
        for (const from of ['first', 'tie', 'beyond'] as ScanFrom[])
          plans[`${s.scan.table} ${older ? 'older' : 'newer'} ${from}`] = planOf(
            scanChunkSql(s.scan, older, from, true),
          );
    // SQLite prints a range `<=` as `<`
    expect(plans).toEqual({
      'fusion_locks older first': ['SEARCH fusion_locks USING INDEX fusion_locks_order (locked_ms<?)'],
      'fusion_locks older tie': ['SEARCH fusion_locks USING INDEX fusion_locks_order (locked_ms=? AND id<?)'],
      'fusion_locks older beyond': ['SEARCH fusion_locks USING INDEX fusion_locks_order (locked_ms<?)'],
      'fusion_locks newer first': ['SEARCH fusion_locks USING INDEX fusion_locks_order (locked_ms>?)'],
      'fusion_locks newer tie': ['SEARCH fusion_locks USING INDEX fusion_locks_order (locked_ms=? AND id>?)'],
      'fusion_locks newer beyond': ['SEARCH fusion_locks USING INDEX fusion_locks_order (locked_ms>?)'],
      ...strategyPlans('s_svc_max_picks'),
      ...strategyPlans('s_yescore'),
      ...strategyPlans('s_no24'),
    });
  });
});

/** A strategy table's: its date index, whose last column is the rowid `id`, seeked on both. */
function strategyPlans(table: string): Record<string, string[]> {
  const search = (range: string) => [`SEARCH ${table} USING INDEX ${table}_date (${range})`];
  return {
    [`${table} older first`]: search('local_date<?'),
    [`${table} older tie`]: search('local_date=? AND rowid<?'),
    [`${table} older beyond`]: search('local_date<?'),
    [`${table} newer first`]: search('local_date>?'),
    [`${table} newer tie`]: search('local_date=? AND rowid>?'),
    [`${table} newer beyond`]: search('local_date>?'),
  };
}
