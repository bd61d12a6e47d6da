import { afterAll, describe, expect, it } from 'vitest';
import { cLeg, handCaches, PARIS, pickEvent } from '../helpers/cache-builder.js';
import { testEvent } from '../helpers/webhook-events.js';

/**
 * The book's horizon as the cache keeps it (DESIGN 4): the listener's registration where the monitor made it (the
 * demo), else its first verified delivery; and what the book holds of picks it never received.
 */
const caches = handCaches('cache-horizon-');
afterAll(() => caches.close());

const PARENT = '11111111-1111-4111-8111-111111111111';
const ADDON = '22222222-2222-4222-8222-222222222222';
const ORPHAN = '33333333-3333-4333-8333-333333333333';
const UNSEEN = '44444444-4444-4444-8444-444444444444';
const KILLED_UNSEEN = '55555555-5555-4555-8555-555555555555';
const DAY = '2026-11-21';

describe('the book’s horizon in the cache', () => {
  it('is the first verified delivery, the earliest of a commit; a registration before it wins and stays', () => {
    const hand = caches.open();
    expect(hand.cache.inbox.bookHorizon()).toBeNull();
    // one commit of two deliveries, 13:05Z and 13:00Z: the first verified delivery is 13:00Z
    hand.cache.inbox.intake(
      ['2026-11-21T13:05:00Z', '2026-11-21T13:00:00Z'].map((receivedAt, i) => {
        const event = testEvent({ eventId: `0000000${i}-0000-4000-8000-000000000000` });
        return {
          eventId: event.event_id,
          replayKey: `test-${i}`,
          eventType: event.event_type,
          deliveryId: `d-${i}`,
          receivedAt,
          body: JSON.stringify(event),
          event,
        };
      }),
      { kill: () => undefined },
    );
    // 2026-11-21T13:00Z: 20,778 days after 1970-01-01 (1,795,219,200,000 ms) plus 13 hours (46,800,000)
    expect(hand.cache.inbox.bookHorizon()).toEqual({ at: '2026-11-21T13:00:00Z', ms: 1795266000000, from: 'delivery' });
    expect(hand.cache.inbox.listenerHealth('2026-11-21T14:00:00Z').lastVerifiedAt).toBe('2026-11-21T13:05:00Z');
    // registered at 12:58Z (the demo registers its listener itself): picks reach the cache from then on
    hand.cache.inbox.recordRegistration('2026-11-21T12:58:00.000Z');
    expect(hand.cache.inbox.bookHorizon()).toEqual({
      at: '2026-11-21T12:58:00.000Z',
      ms: 1795265880000, // 2 minutes (120,000 ms) before 13:00Z
      from: 'registration',
    });
    // a later run registers again: the cache has received picks since the first
    hand.cache.inbox.recordRegistration('2026-11-22T08:00:00.000Z');
    expect(hand.cache.inbox.bookHorizon()?.at).toBe('2026-11-21T12:58:00.000Z');
  });

  it('marks an open addon whose pick never arrived, lists a kill of such a pick, and joins the rest as before', () => {
    const hand = caches.open().cities(PARIS);
    const pick = (type: Parameters<typeof pickEvent>[0], pickId: string, at: string, parent?: string) =>
      pickEvent(type, { pickId, parent, city: PARIS, date: DAY, at, legs: [cLeg(parent ? 'C' : 'A', 12)] });
    hand.deliver([
      pick('insurance.pick.created', PARENT, '2026-11-21T13:00:00Z'),
      pick('insurance.addon.created', ADDON, '2026-11-21T13:10:00Z', PARENT),
      pick('insurance.addon.created', ORPHAN, '2026-11-21T13:20:00Z', UNSEEN),
      pick('insurance.pick.killed', KILLED_UNSEEN, '2026-11-21T13:30:00Z'),
    ]);
    const open = hand.cache.positions.open('2026-11-20');
    expect(open.picks.map((p) => [p.pick_id, p.parent_not_received ?? false])).toEqual([
      [ORPHAN, true],
      [ADDON, false],
      [PARENT, false],
    ]);
    expect(open.killsNotReceived.map((k) => [k.pick_id, k.killed_at])).toEqual([
      [KILLED_UNSEEN, '2026-11-21T13:30:00Z'],
    ]);
    expect(open.horizon?.at).toBe('2026-11-21T13:00:00Z');
    // as of 13:25Z the kill had not come: only the orphan addon
    const then = hand.cache.positions.notReceived('2026-11-20', Date.parse('2026-11-21T13:25:00Z'));
    expect([then.addons.map((a) => a.pick_id), then.kills.length]).toEqual([[ORPHAN], 0]);
    const now = hand.cache.positions.notReceived('2026-11-20');
    expect([now.addons.map((a) => a.pick_id), now.kills.map((k) => k.pick_id)]).toEqual([[ORPHAN], [KILLED_UNSEEN]]);
    // the day's own read (the board's past days, Forecasts' payoff) says the same
    const day = hand.cache.positions.openOfDay(PARIS.city_id, DAY);
    expect(day.picks.find((p) => p.pick_id === ORPHAN)?.parent_not_received).toBe(true);
    expect(day.killsNotReceived.map((k) => k.pick_id)).toEqual([KILLED_UNSEEN]);
    // the parent's pick arrives late (a retry): the addon joins it
    hand.deliver([pick('insurance.pick.created', UNSEEN, '2026-11-21T12:00:00Z')], '2026-11-21T14:00:00Z');
    expect(hand.cache.positions.open('2026-11-20').picks.some((p) => p.parent_not_received)).toBe(false);
  });
});
