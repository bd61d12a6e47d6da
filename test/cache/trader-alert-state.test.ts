import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../../src/cache/db/migrations.js';
import { openCache } from '../../src/cache/index.js';
import type { AlertKind } from '../../src/contract/alert-kinds.js';
import { CACHE_APPLICATION_ID } from '../../src/sqlite/application-ids.js';
import { storedAlerts } from '../helpers/cache-rows.js';

const root = mkdtempSync(join(tmpdir(), 'svc-trader-state-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const AT = '2026-11-24T15:00:00.000Z';
const edge = (ref: string) => ({
  severity: 'info' as const,
  kind: 'edge' as const,
  ref,
  city_id: 'nyc',
  created_at: AT,
  message: `edge on ${ref}`,
});
const once = (kind: AlertKind, ref: string) => ({ ...edge(ref), kind, once: true });

describe('the trader alerts’ state in the cache', () => {
  it('stores a once-alert once, keeps fired edges and snoozes across a reopen, and forgets edges', () => {
    const file = join(root, 'state.db');
    const cache = openCache(file);
    const yes = 'nyc|2026-11-24|70-71°F|YES';
    const first = cache.alerts.raiseMarketAlerts({
      alerts: [once('breakthrough', 'nyc|2026-11-24'), edge(yes)],
      fired: [{ ref: yes, city_id: 'nyc', local_date: '2026-11-24' }],
    });
    expect(first.map((a) => [a.kind, a.ref])).toEqual([
      ['breakthrough', 'nyc|2026-11-24'],
      ['edge', yes],
    ]);
    // the same breakthrough again: left out
    expect(cache.alerts.raiseMarketAlerts({ alerts: [once('breakthrough', 'nyc|2026-11-24')], fired: [] })).toEqual([]);
    cache.alerts.snoozeCity('nyc', 1_000_000);
    cache.alerts.snoozeCity('nyc', 2_000_000);
    cache.close();

    const again = openCache(file);
    try {
      expect(again.alerts.firedEdges('nyc', '2026-11-24')).toEqual(new Set([yes]));
      expect(again.alerts.firedEdges('nyc', '2026-11-25')).toEqual(new Set());
      // the later snooze replaced the earlier; it is over at its instant
      expect(again.alerts.snoozed(1_500_000)).toEqual([{ city_id: 'nyc', until_ms: 2_000_000 }]);
      expect(again.alerts.snoozed(2_000_000)).toEqual([]);
      // firing the same mark again keeps one
      again.alerts.raiseMarketAlerts({ alerts: [], fired: [{ ref: yes, city_id: 'nyc', local_date: '2026-11-24' }] });
      expect(again.alerts.firedEdges('nyc', '2026-11-24')).toEqual(new Set([yes]));
      again.alerts.forgetEdgesBefore('2026-11-24');
      expect(again.alerts.firedEdges('nyc', '2026-11-24').size).toBe(1);
      again.alerts.forgetEdgesBefore('2026-11-25');
      expect(again.alerts.firedEdges('nyc', '2026-11-24').size).toBe(0);
      // export order, newest first: still the two of the first write, none of the repeat
      expect(storedAlerts(again).map((a) => a.kind)).toEqual(['edge', 'breakthrough']);
    } finally {
      again.close();
    }
  });

  it('v4 -> v5 keeps every alert and adds the edge marks and snoozes', () => {
    const file = join(root, 'v4.db');
    const v4 = new Database(file);
    v4.pragma('journal_mode = WAL');
    for (const migration of MIGRATIONS.slice(0, 4)) v4.exec(migration);
    v4.pragma(`application_id = ${CACHE_APPLICATION_ID}`);
    v4.pragma('user_version = 4');
    v4.prepare(
      `INSERT INTO alerts (severity, kind, message, ref, city_id, created_at, created_ms, notified_at)
       VALUES ('high', 'kill', 'KILL nyc', 'p1', 'nyc', '2026-11-21T15:00:00Z', 1763737200000, '2026-11-21T15:00:01Z')`,
    ).run();
    v4.close();

    const cache = openCache(file);
    try {
      expect(storedAlerts(cache).map((a) => [a.kind, a.message])).toEqual([['kill', 'KILL nyc']]);
      expect(cache.alerts.firedEdges('nyc', '2026-11-21')).toEqual(new Set());
      expect(cache.alerts.snoozed(0)).toEqual([]);
    } finally {
      cache.close();
    }
  });
});
