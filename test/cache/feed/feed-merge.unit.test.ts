import { describe, expect, it } from 'vitest';
import { type FeedKey, openCache, type Signal } from '../../../src/cache/index.js';
import {
  fusionLock,
  HandCache,
  LONDON,
  NYC,
  no24,
  PARIS,
  pickEvent,
  svcMaxPick,
  yescore,
} from '../../helpers/cache-builder.js';
import { edgeEvent, leg, testEvent } from '../../helpers/webhook-events.js';
import { walkNewer, walkOlder } from '../keyset.js';

const ids = (signals: Signal[]) => signals.map((s) => `${s.kind}:${s.key}`);
const keyOf = (s: Signal): FeedKey => ({ at: s.at, rank: s.rank, key: s.key });

const P1 = '00000000-0000-4000-8000-000000000001';
const P2 = '00000000-0000-4000-8000-000000000002';
const P3 = '00000000-0000-4000-8000-000000000003';

/** The instants the sources share (London is UTC in November, New York UTC-5, Paris UTC+1). */
const A = '2026-11-21T00:01:00Z'; // 00:01 in London: its no24 and yescore records of the 21st enter
const T = '2026-11-21T00:00:00Z'; // London's midnight: its 20th settles; 19:00 of the 20th in New York
const B = '2026-11-20T23:01:00Z'; // 00:01 on the 21st in Paris: its no24 and yescore records of the 21st enter
const C = '2026-11-20T22:00:00Z';

const record = (id: number, city_id: string, local_date: string) => ({
  id,
  city_id,
  local_date,
  bucket_label: '50-51°F',
  shares: 20,
  ask: 0.5,
});
const lock = (id: string, locked_at: string, settled = false) =>
  fusionLock({
    id,
    city_id: 'london',
    local_date: locked_at.slice(0, 10),
    locked_at,
    bucket_label: '50-51°F',
    yes_price: 0.4,
    tokens: 25,
    ...(settled ? { hit: true, actual_c: 10 } : {}),
  });

/**
 * Every source of the feed with signals at instants the others share, so each page is a merge of interleaved
 * sources: at T one signal of every rank but yescore's and no24's (and two of a few), at A and B stored and derived
 * signals side by side. The two test deliveries are written first, so they are the webhook events 1 and 2.
 */
function interleaved(): HandCache {
  const h = new HandCache(openCache(':memory:'));
  h.cities(NYC, LONDON, PARIS);
  h.deliver([testEvent({ message: 'one' }), testEvent({ message: 'two' })], T);
  const london = { city: LONDON, date: '2026-11-21', legs: [leg('A', 50), leg('B', 52)] };
  h.deliver([
    pickEvent('insurance.pick.created', { ...london, pickId: P1, date: '2026-11-20', at: C }),
    pickEvent('insurance.pick.killed', { ...london, pickId: P1, date: '2026-11-20', at: T }),
    pickEvent('insurance.pick.created', { ...london, pickId: P2, at: T }),
    pickEvent('insurance.pick.created', { ...london, pickId: P3, at: A }),
    edgeEvent('edge.trade.entered', { tradeId: 7, executedAt: C }),
    edgeEvent('edge.trade.exited', { tradeId: 7, executedAt: T }),
    edgeEvent('edge.trade.entered', { tradeId: 8, executedAt: T }),
    edgeEvent('edge.trade.entered', { tradeId: 9, executedAt: B }),
  ]);
  // fl-r is locked on the 20th and settles at London's midnight after it: T
  h.locks(lock('fl-r', '2026-11-20T14:00:00Z', true), lock('fl-t1', T), lock('fl-t2', T), lock('fl-a1', A));
  h.records('svc-max-picks', svcMaxPick({ ...record(31, 'nyc', '2026-11-20'), entry_hour: 19 }));
  h.records('yescore', yescore(record(11, 'london', '2026-11-21')), yescore(record(12, 'paris', '2026-11-21')));
  h.records('no24', no24(record(21, 'london', '2026-11-21')), no24(record(22, 'paris', '2026-11-21')));
  return h;
}

/**
 * The feed worked out by hand: newest instant first; at one instant by rank (kill 0, pick 1, edge exit 2, edge
 * entry 3, test 4, settlement 5, lock 6, svc-max 7, yescore 8, no24 9); within a source, the higher key first.
 */
const FEED = [
  // A
  `pick:${P3}`,
  'lock:fl-a1',
  'yescore:11',
  'no24:21',
  // T
  `kill:${P1}`,
  `pick:${P2}`,
  'edge-exit:7',
  'edge-entry:8',
  'test:2',
  'test:1',
  'lock-resolved:fl-r',
  'lock:fl-t2',
  'lock:fl-t1',
  'svc-max-picks:31',
  // B
  'edge-entry:9',
  'yescore:12',
  'no24:22',
  // C
  `pick:${P1}`,
  'edge-entry:7',
  // the 20th, 14:00
  'lock:fl-r',
];

describe('a page of the Signals feed merged from interleaved sources', () => {
  it('orders every source into one list, newest first, at a shared instant by rank', () => {
    const { feed } = interleaved().cache;
    const all = feed.older(null, 100);
    expect(ids(all)).toEqual(FEED);
    // each signal carries its kind's rank, the one its source pages by
    expect(Object.fromEntries(all.map((s) => [s.kind, s.rank]))).toEqual({
      kill: 0,
      pick: 1,
      'edge-exit': 2,
      'edge-entry': 3,
      test: 4,
      'lock-resolved': 5,
      lock: 6,
      'svc-max-picks': 7,
      yescore: 8,
      no24: 9,
    });
  });

  it('stops at the limit wherever it falls: inside a source, inside an instant, between two sources', () => {
    const { feed } = interleaved().cache;
    // 9: between the two tests of T; 12: between the two locks of T; 14: the last of T, before B's first
    expect(ids(feed.older(null, 9))).toEqual(FEED.slice(0, 9));
    expect(ids(feed.older(null, 12))).toEqual(FEED.slice(0, 12));
    expect(ids(feed.older(null, 14))).toEqual(FEED.slice(0, 14));
    // after a cursor inside T's instant (its pick P2, the 6th), 5 more: up to the first lock of T (the 11th)
    const all = feed.older(null, 100);
    expect(ids(feed.older(keyOf(all[5] as Signal), 5))).toEqual(FEED.slice(6, 11));
  });

  it('reads newer nearest first, stopping at the limit inside an instant', () => {
    const { feed } = interleaved().cache;
    const all = feed.older(null, 100);
    // from the oldest (lock fl-r, the 20th), 8: C's two, B's three, then T from its last rank: svc-max, fl-t1, fl-t2
    expect(ids(feed.newer(keyOf(all[19] as Signal), 8))).toEqual([
      'edge-entry:7',
      `pick:${P1}`,
      'no24:22',
      'yescore:12',
      'edge-entry:9',
      'svc-max-picks:31',
      'lock:fl-t1',
      'lock:fl-t2',
    ]);
    // from B's no24 (the 17th), 5: the rest of B, then T from its last rank, the cut between T's two locks
    expect(ids(feed.newer(keyOf(all[16] as Signal), 5))).toEqual([
      'yescore:12',
      'edge-entry:9',
      'svc-max-picks:31',
      'lock:fl-t1',
      'lock:fl-t2',
    ]);
  });

  it('puts a settlement after the test deliveries of its instant, and reads them back in reverse', () => {
    const { feed } = interleaved().cache;
    // at T the tests (rank 4) come before fl-r's settlement (rank 5): older cut at 10 ends on the tests, at 11 on it
    expect(ids(feed.older(null, 10)).slice(-3)).toEqual(['edge-entry:8', 'test:2', 'test:1']);
    expect(ids(feed.older(null, 11)).slice(-3)).toEqual(['test:2', 'test:1', 'lock-resolved:fl-r']);
    const all = feed.older(null, 100);
    // from T's lock fl-t2 (the 12th), 4 nearer: the settlement (the 11th), the tests (the 10th, 9th), the entry
    // (the 8th): the 8th to 11th reversed
    expect(ids(feed.newer(keyOf(all[11] as Signal), 4))).toEqual([
      'lock-resolved:fl-r',
      'test:1',
      'test:2',
      'edge-entry:8',
    ]);
    // a cursor on the settlement: older gives T's locks, newer the tests, neither gives the tests again
    expect(ids(feed.older(keyOf(all[10] as Signal), 2))).toEqual(['lock:fl-t2', 'lock:fl-t1']);
    expect(ids(feed.newer(keyOf(all[10] as Signal), 2))).toEqual(['test:1', 'test:2']);
    // and one on the last test: older gives the settlement next
    expect(ids(feed.older(keyOf(all[9] as Signal), 1))).toEqual(['lock-resolved:fl-r']);
  });

  it('walks a test delivery and a settlement of the same millisecond each once, either way, a signal or two a page', () => {
    const { feed } = interleaved().cache;
    // at T two tests (keys 1 and 2, numbers) and fl-r's settlement (key 'fl-r', text): a cursor on either must
    // never skip or repeat the other; a page of 1 or 2 puts a cursor on each of the three
    for (const limit of [1, 2]) {
      const older = walkOlder((after, n) => feed.older(after, n), keyOf, limit);
      expect(ids(older), `older by ${limit}`).toEqual(FEED);
      // from the oldest, lock fl-r: every other signal, nearest first
      const oldest = older.at(-1) as Signal;
      const newer = walkNewer((before, n) => feed.newer(before, n), keyOf, oldest, limit);
      expect(ids(newer), `newer by ${limit}`).toEqual(FEED.slice(0, -1).reverse());
    }
  });

  it('orders text keys as SQLite does, so a page and the cursor of the next agree', () => {
    const h = new HandCache(openCache(':memory:'));
    h.cities(LONDON);
    // at one instant: U+10000 is after U+FF21 and U+FFFD in UTF-8 bytes (SQLite's order: F0 90 80 80 > EF BF BD >
    // EF BC A1) but before them in UTF-16 units (JavaScript's `<`: D800 < FF21); the higher key comes first
    h.locks(lock('fl-\u{10000}', T), lock('fl-\uFFFD', T), lock('fl-\uFF21', T), lock('fl-a', T));
    const order = ['lock:fl-\u{10000}', 'lock:fl-\uFFFD', 'lock:fl-\uFF21', 'lock:fl-a'];
    expect(ids(h.cache.feed.older(null, 10))).toEqual(order);
    // paged by 1, 2 and 3: each once (in JavaScript's order a page's last key and the SQL cursor drawn after it, by
    // bytes, disagreed: a lock was skipped or shown twice)
    for (const limit of [1, 2, 3]) {
      const older = walkOlder((after, n) => h.cache.feed.older(after, n), keyOf, limit);
      expect(ids(older), `older by ${limit}`).toEqual(order);
      const oldest = older.at(-1) as Signal;
      const newer = walkNewer((before, n) => h.cache.feed.newer(before, n), keyOf, oldest, limit);
      expect(ids(newer), `newer by ${limit}`).toEqual(order.slice(0, -1).reverse());
    }
  });
});
