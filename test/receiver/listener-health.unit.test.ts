import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { INBOX_ALERT_RULES } from '../../src/alerts/kill-alert.js';
import { LISTENER_ALERT_RULES } from '../../src/alerts/listener-refusing-alert.js';
import { type Cache, type ListenerRefusal, openCache } from '../../src/cache/index.js';
import type { TestEvent } from '../../src/contract/events.js';

/** cache.inbox.listenerHealth over an in-memory cache: what `status` and the status bar read of the listener. */

const refused = (at: string, cause: ListenerRefusal['cause'] = 'signature'): ListenerRefusal => ({
  cause,
  receivedAt: at,
  remoteAddress: '127.0.0.1',
  eventId: randomUUID(),
  eventType: 'insurance.pick.killed',
});

function verified(cache: Cache, at: string): void {
  const event: TestEvent = {
    event_id: randomUUID(),
    event_type: 'webhook.test',
    event_version: 1,
    created_at: at,
    attempt: 1,
    message: 'hello',
  };
  cache.inbox.intake(
    [
      {
        eventId: event.event_id,
        replayKey: null,
        eventType: 'webhook.test',
        deliveryId: randomUUID(),
        receivedAt: at,
        body: JSON.stringify(event),
        event,
      },
    ],
    INBOX_ALERT_RULES,
  );
}

describe('the listener’s health in the cache', () => {
  it('is empty on a fresh cache', () => {
    const cache = openCache(':memory:');
    expect(cache.inbox.listenerHealth('2026-11-21T12:00:00Z')).toEqual({
      firstVerifiedAt: null,
      lastVerifiedAt: null,
      lastRefusalAt: null,
      lastRefusalCause: null,
      refusalsLastHour: 0,
      refusing: false,
    });
    cache.close();
  });

  it('counts the refusals of the hour up to now, stands refusing from the alert until a delivery verifies', () => {
    const cache = openCache(':memory:');
    verified(cache, '2026-11-21T10:00:00Z');
    verified(cache, '2026-11-21T10:30:00Z');
    // 11:00 and 11:05 (two: no alert), then 11:09 makes three within 9 minutes: the alert, stamped 11:09
    expect(
      cache.inbox.refuse([refused('2026-11-21T11:00:00Z'), refused('2026-11-21T11:05:00Z')], LISTENER_ALERT_RULES),
    ).toBeNull();
    const alert = cache.inbox.refuse([refused('2026-11-21T11:09:00Z')], LISTENER_ALERT_RULES);
    expect(alert).toMatchObject({ kind: 'listener-refusing', created_at: '2026-11-21T11:09:00Z' });
    // a fourth, and a replay: kept, no second alert
    expect(
      cache.inbox.refuse(
        [refused('2026-11-21T11:20:00Z'), refused('2026-11-21T11:30:00Z', 'replay')],
        LISTENER_ALERT_RULES,
      ),
    ).toBeNull();
    // the hour up to 12:00:00 is (11:00:00, 12:00:00]: 11:05, 11:09, 11:20 and the replay at 11:30, not 11:00 itself
    expect(cache.inbox.listenerHealth('2026-11-21T12:00:00Z')).toEqual({
      firstVerifiedAt: '2026-11-21T10:00:00Z',
      lastVerifiedAt: '2026-11-21T10:30:00Z',
      lastRefusalAt: '2026-11-21T11:30:00Z',
      // the newest refusal kept, 11:30, was the replay
      lastRefusalCause: 'replay',
      refusalsLastHour: 4,
      refusing: true,
    });
    // a delivery verified at 11:40 ends it; the first verified stays 10:00
    verified(cache, '2026-11-21T11:40:00Z');
    expect(cache.inbox.listenerHealth('2026-11-21T12:00:00Z')).toMatchObject({
      firstVerifiedAt: '2026-11-21T10:00:00Z',
      lastVerifiedAt: '2026-11-21T11:40:00Z',
      refusing: false,
    });
    // the refusals before 11:40 are not the new run's: two after it raise nothing, the third does
    expect(
      cache.inbox.refuse([refused('2026-11-21T11:50:00Z'), refused('2026-11-21T11:51:00Z')], LISTENER_ALERT_RULES),
    ).toBeNull();
    expect(cache.inbox.refuse([refused('2026-11-21T11:52:00Z')], LISTENER_ALERT_RULES)?.created_at).toBe(
      '2026-11-21T11:52:00Z',
    );
    expect(cache.inbox.listenerHealth('2026-11-21T12:00:00Z').refusing).toBe(true);
    cache.close();
  });

  it('forgets refusals a week older than the newest it keeps', () => {
    const cache = openCache(':memory:');
    cache.inbox.refuse([refused('2026-11-10T12:00:00Z'), refused('2026-11-14T12:00:00Z')], LISTENER_ALERT_RULES);
    // 2026-11-21T12:00:00Z: 11-14T12:00 is exactly 7 days before (kept), 11-10 eleven days (gone)
    cache.inbox.refuse([refused('2026-11-21T12:00:00Z')], LISTENER_ALERT_RULES);
    expect(cache.inbox.listenerHealth('2026-11-21T12:00:00Z').lastRefusalAt).toBe('2026-11-21T12:00:00Z');
    expect(cache.inbox.listenerHealth('2026-11-14T12:30:00Z').refusalsLastHour).toBe(1);
    expect(cache.inbox.listenerHealth('2026-11-10T12:30:00Z').refusalsLastHour).toBe(0);
    cache.close();
  });
});
