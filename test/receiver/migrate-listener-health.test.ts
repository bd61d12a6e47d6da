import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, expect, it } from 'vitest';
import { Cache } from '../../src/cache/cache.js';
import { MIGRATIONS } from '../../src/cache/db/migrations.js';
import { openCacheFile } from '../../src/cache/db/open-cache-file.js';
import { CACHE_APPLICATION_ID } from '../../src/sqlite/application-ids.js';
import { testEvent } from '../helpers/webhook-events.js';

const root = mkdtempSync(join(tmpdir(), 'svc-migrate-listener-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

it('a cache from before keeps its first and last stored events as the listener’s verified deliveries', () => {
  const path = join(root, 'v6.db');
  // a cache as version 6 left it, with three events received 14:00, 15:00 and 16:00 (in seq order)
  const v6 = new Database(path);
  v6.pragma('journal_mode = WAL');
  for (const migration of MIGRATIONS.slice(0, 6)) v6.exec(migration);
  v6.pragma(`application_id = ${CACHE_APPLICATION_ID}`);
  v6.pragma('user_version = 6');
  const insert = v6.prepare(
    `INSERT INTO webhook_events (event_id, event_type, delivery_id, received_at, received_ms, body)
     VALUES (?, 'webhook.test', 'd', ?, ?, ?)`,
  );
  for (const at of ['2026-11-21T14:00:00Z', '2026-11-21T15:00:00Z', '2026-11-21T16:00:00Z']) {
    const event = testEvent();
    insert.run(event.event_id, at, Date.parse(at), JSON.stringify(event));
  }
  v6.close();

  const cache = new Cache(openCacheFile(path));
  try {
    expect(cache.inbox.listenerHealth('2026-11-21T16:30:00Z')).toEqual({
      firstVerifiedAt: '2026-11-21T14:00:00Z',
      lastVerifiedAt: '2026-11-21T16:00:00Z',
      lastRefusalAt: null,
      lastRefusalCause: null,
      refusalsLastHour: 0,
      refusing: false,
    });
  } finally {
    cache.close();
  }
});

it('an empty cache from before has no verified delivery', () => {
  const path = join(root, 'v6-empty.db');
  const v6 = new Database(path);
  v6.pragma('journal_mode = WAL');
  for (const migration of MIGRATIONS.slice(0, 6)) v6.exec(migration);
  v6.pragma(`application_id = ${CACHE_APPLICATION_ID}`);
  v6.pragma('user_version = 6');
  v6.close();
  const cache = new Cache(openCacheFile(path));
  try {
    expect(cache.inbox.listenerHealth('2026-11-21T16:30:00Z').lastVerifiedAt).toBeNull();
  } finally {
    cache.close();
  }
});
