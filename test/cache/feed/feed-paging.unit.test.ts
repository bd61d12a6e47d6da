import { describe, expect, it } from 'vitest';
import { INBOX_ALERT_RULES } from '../../../src/alerts/kill-alert.js';
import { type Cache, compareFeed, type FeedKey, openCache, type Signal } from '../../../src/cache/index.js';
import type { WebhookEvent } from '../../../src/contract/events.js';
import type { FusionLock } from '../../../src/contract/fusion-locks.js';
import { walkNewer, walkOlder } from '../keyset.js';

const keyOf = (s: Signal): FeedKey => ({ at: s.at, rank: s.rank, key: s.key });
const ids = (signals: Signal[]) => signals.map((s) => `${s.kind}:${s.key}`);

function lock(id: string, lockedAt: string, resolved = false): FusionLock {
  return {
    id,
    city_id: 'nyc',
    local_date: lockedAt.slice(0, 10),
    peak_hour: 14,
    locked_at: lockedAt,
    bucket_slug: '64-65f',
    bucket_label: '64-65°F',
    event_slug: 'highest-temperature-in-nyc',
    yes_price: 0.5,
    tokens: 10,
    resolved,
    actual_tmax_f: null,
    actual_tmax_c: null,
    hit: resolved ? true : null,
    payout_usd: null,
    pnl_usd: resolved ? 5 : null,
  };
}

/** A `webhook.test` delivery as the receiver hands it to the inbox. */
function testDelivery(n: number, receivedAt: string) {
  const event = {
    event_id: `00000000-0000-4000-8000-00000000000${n}`,
    event_type: 'webhook.test',
    event_version: 1,
    created_at: receivedAt,
    attempt: 1,
    message: `ping ${n}`,
  } as WebhookEvent;
  return {
    eventId: `test-${n}`,
    replayKey: null,
    eventType: 'webhook.test' as const,
    deliveryId: `delivery-${n}`,
    receivedAt,
    body: JSON.stringify(event),
    event,
  };
}

/**
 * Locks sharing their lock time (a tie on the instant and the rank: the key decides), two of them settled (each
 * also a `lock-resolved` signal, at the local midnight after its day), and two test deliveries received at the same
 * instant as some locks (a tie on the instant: the rank decides).
 */
function filledCache(): Cache {
  const cache = openCache(':memory:');
  cache.resources.upsertFusionLocks([
    lock('fl-a', '2026-11-20T14:00:00Z', true),
    lock('fl-b', '2026-11-21T14:00:00Z'),
    lock('fl-c', '2026-11-21T14:00:00Z'),
    lock('fl-d', '2026-11-21T14:00:00Z'),
    lock('fl-e', '2026-11-21T15:00:00Z'),
    lock('fl-f', '2026-11-19T14:00:00Z', true),
    lock('fl-g', '2026-11-21T16:00:00Z'),
  ]);
  cache.inbox.intake(
    [testDelivery(1, '2026-11-21T14:00:00Z'), testDelivery(2, '2026-11-21T14:00:00Z')],
    INBOX_ALERT_RULES,
  );
  return cache;
}

describe('the Signals feed, paged by keyset', () => {
  it('reads nothing from an empty cache, and nothing for a page of no rows', () => {
    const cache = openCache(':memory:');
    expect(cache.feed.older(null, 10)).toEqual([]);
    expect(cache.feed.newer({ at: Date.now(), rank: 0, key: 'x' }, 10)).toEqual([]);
    const filled = filledCache();
    expect(filled.feed.older(null, 0)).toEqual([]);
    expect(filled.feed.newer({ at: 0, rank: 0, key: 0 }, 0)).toEqual([]);
  });

  it('lists every signal once, newest first, ties broken by rank and then key', () => {
    const all = filledCache().feed.older(null, 100);
    expect(ids(all)).toEqual([
      'lock:fl-g',
      'lock:fl-e',
      'test:2', // 14:00 on the 21st: the tests' rank comes before the locks'; within a kind, the higher key first
      'test:1',
      'lock:fl-d',
      'lock:fl-c',
      'lock:fl-b',
      'lock-resolved:fl-a', // settled at the local midnight after its day (no city: UTC)
      'lock:fl-a',
      'lock-resolved:fl-f',
      'lock:fl-f',
    ]);
    for (let i = 1; i < all.length; i++) expect(compareFeed(all[i - 1] as Signal, all[i] as Signal)).toBeLessThan(0);
  });

  it('gives the same list page by page, whatever the page size, in both directions', () => {
    const cache = filledCache();
    const all = cache.feed.older(null, 100);
    for (const limit of [1, 2, 3, 4, 11, 12]) {
      const older = walkOlder((after, n) => cache.feed.older(after, n), keyOf, limit);
      expect(ids(older), `older by ${limit}`).toEqual(ids(all));
      const newer = walkNewer((before, n) => cache.feed.newer(before, n), keyOf, all.at(-1) as Signal, limit);
      expect(ids(newer), `newer by ${limit}`).toEqual(ids(all.slice(0, -1).reverse()));
    }
  });

  it('ends at both ends: nothing older than the oldest, nothing newer than the newest', () => {
    const cache = filledCache();
    const all = cache.feed.older(null, 100);
    expect(cache.feed.older(keyOf(all.at(-1) as Signal), 5)).toEqual([]);
    expect(cache.feed.newer(keyOf(all[0] as Signal), 5)).toEqual([]);
  });

  it('continues exactly after a page boundary that falls inside a tie', () => {
    const cache = filledCache();
    const all = cache.feed.older(null, 100);
    // a page of three ends between the two tests of one instant, a page of five inside the three locks of it
    expect(ids(cache.feed.older(keyOf(all[2] as Signal), 1))).toEqual(['test:1']);
    expect(ids(cache.feed.older(keyOf(all[4] as Signal), 2))).toEqual(['lock:fl-c', 'lock:fl-b']);
    // and back: from the last lock of the tie, across the rank boundary into the tests
    expect(ids(cache.feed.newer(keyOf(all[6] as Signal), 3))).toEqual(['lock:fl-c', 'lock:fl-d', 'test:1']);
  });
});
