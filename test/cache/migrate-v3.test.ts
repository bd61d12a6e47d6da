import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, expect, it } from 'vitest';
import { INBOX_ALERT_RULES } from '../../src/alerts/kill-alert.js';
import { Cache } from '../../src/cache/cache.js';
import { MIGRATIONS } from '../../src/cache/db/migrations.js';
import { openCacheFile } from '../../src/cache/db/open-cache-file.js';
import type { InboxEntry } from '../../src/cache/index.js';
import type { WebhookEvent } from '../../src/contract/events.js';
import { replayKey } from '../../src/receiver/identity.js';
import { CACHE_APPLICATION_ID } from '../../src/sqlite/application-ids.js';
import { edgeEvent, insuranceEvent, testEvent } from '../helpers/webhook-events.js';

const root = mkdtempSync(join(tmpdir(), 'svc-migrate-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function entry(event: WebhookEvent, eventId = 'event_id' in event ? event.event_id : randomUUID()): InboxEntry {
  return {
    eventId,
    replayKey: replayKey(event),
    eventType: event.event_type,
    deliveryId: randomUUID(),
    receivedAt: '2026-11-21T15:00:00.000Z',
    body: JSON.stringify(event),
    event,
  };
}

it('v2 -> v3 keeps every webhook event, its seq and the AUTOINCREMENT mark, and keys edge replays still', () => {
  const path = join(root, 'v2.db');
  // a cache as version 2 left it: identity on every row, and a deleted last row above the surviving ones
  const v2 = new Database(path);
  v2.pragma('journal_mode = WAL');
  v2.exec(MIGRATIONS[0] as string);
  v2.exec(MIGRATIONS[1] as string);
  v2.pragma(`application_id = ${CACHE_APPLICATION_ID}`);
  v2.pragma('user_version = 2');
  const pick = insuranceEvent('insurance.pick.created');
  const entered = edgeEvent('edge.trade.entered', { tradeId: 7, operation: 'BUY' });
  const ping = testEvent();
  const insert = v2.prepare(
    `INSERT INTO webhook_events (event_id, identity, event_type, delivery_id, received_at, received_ms, body)
     VALUES (?, ?, ?, 'd', '2026-11-21T14:00:00Z', 1763733600000, ?)`,
  );
  const edgeId = randomUUID();
  insert.run(pick.event_id, `event:${pick.event_id}`, pick.event_type, JSON.stringify(pick));
  insert.run(edgeId, 'edge:7:BUY', entered.event_type, JSON.stringify(entered));
  insert.run(ping.event_id, `event:${ping.event_id}`, ping.event_type, JSON.stringify(ping));
  insert.run(randomUUID(), 'event:gone', 'webhook.test', '{}');
  v2.exec('DELETE FROM webhook_events WHERE seq = 4');
  const before = v2.prepare('SELECT seq, event_id, event_type, body FROM webhook_events ORDER BY seq').all();
  v2.close();

  const db = openCacheFile(path);
  expect(db.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length);
  expect(db.prepare('SELECT seq, event_id, event_type, body FROM webhook_events ORDER BY seq').all()).toEqual(before);
  expect(db.prepare('SELECT replay_key FROM webhook_events ORDER BY seq').pluck().all()).toEqual([
    null,
    'edge:7:BUY',
    null,
  ]);
  const indexes = db.prepare("SELECT name FROM sqlite_schema WHERE tbl_name = 'webhook_events' AND type = 'index'");
  expect(indexes.pluck().all()).toContain('webhook_events_tests');
  expect(db.prepare("SELECT count(*) FROM sqlite_schema WHERE name = 'webhook_events_v3'").pluck().get()).toBe(0);

  const cache = new Cache(db);
  const next = insuranceEvent('insurance.pick.created');
  expect(cache.inbox.intake([entry(next)], INBOX_ALERT_RULES)).toEqual(['stored']);
  // seq continues above the deleted row, so a feed keyed by seq never sees a number twice
  expect(db.prepare('SELECT max(seq) FROM webhook_events').pluck().get()).toBe(5);
  // the edge entry replayed under a fresh header id, and the pick under its own id: both already seen
  expect(cache.inbox.intake([entry(entered), entry(pick)], INBOX_ALERT_RULES)).toEqual(['duplicate', 'duplicate']);
  expect(db.prepare('SELECT count(*) FROM webhook_events').pluck().get()).toBe(4);
  db.close();
});
