import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { httpClient, pool, startTempListener, type TempListener } from '../helpers/listener-harness.js';
import { seededRandom, testSeed } from '../helpers/sync-fixtures.js';
import {
  type Delivery,
  edgeEvent,
  insuranceEvent,
  PRIMARY_SECRET,
  signed,
  testEvent,
} from '../helpers/webhook-events.js';

/**
 * 2,000 deliveries, 80 in flight: unique events, exact duplicates (same body, same headers), insurance retries
 * (same event id, next attempt, new delivery id, signed anew), edge replays under a fresh X-Svc-Event-Id (a
 * duplicate: the body is what was signed) and insurance/test replays under a header id that differs from the body
 * (400 by design). Exactly the unique events are stored, each answered `stored` once, everything else as expected.
 */

const SEED = testSeed('RECEIVER_DUP_SEED', 5_2026);
const UNIQUE = 1_150;
const EXACT_DUPLICATES = 600;
const RETRIES = 100;
const EDGE_REPLAYS = 100;
const MISMATCHED = 50;

let l: TempListener;
const http = httpClient(128);
beforeAll(async () => {
  l = await startTempListener();
});
afterAll(async () => {
  await http.close();
  await l?.close();
});

interface Send {
  delivery: Delivery;
  /** de-duplication identity, or null for a send that must be refused */
  identity: string | null;
}

it('stores exactly the unique events under concurrent duplicates and replays, in grouped commits', async () => {
  const rng = seededRandom(SEED);
  const originals: { delivery: Delivery; identity: string; event: any }[] = [];
  const pickIds = new Set<string>();
  const killedPicks = new Set<string>();
  const tradeIds = new Set<number>();
  const openPicks: string[] = [];
  let tradeId = 0;
  const enteredTrades: number[] = [];
  while (originals.length < UNIQUE) {
    const roll = rng();
    let event: any;
    if (roll < 0.25) {
      const pickId = randomUUID();
      openPicks.push(pickId);
      event = insuranceEvent('insurance.pick.created', { pickId });
    } else if (roll < 0.33 && openPicks.length > 0) {
      event = insuranceEvent('insurance.addon.created', { parentPickId: openPicks[openPicks.length - 1], tradeSeq: 2 });
    } else if (roll < 0.43 && openPicks.length > 0) {
      const pickId = openPicks.pop() as string;
      event = insuranceEvent('insurance.pick.killed', { pickId, tradeSeq: 3 });
      killedPicks.add(pickId);
    } else if (roll < 0.65) {
      tradeId += 1;
      enteredTrades.push(tradeId);
      event = edgeEvent('edge.trade.entered', { tradeId });
    } else if (roll < 0.82 && enteredTrades.length > 0) {
      const id = enteredTrades.shift() as number;
      event = edgeEvent('edge.trade.exited', { tradeId: id, operation: rng() < 0.5 ? 'SELL' : 'SETTLE' });
    } else {
      event = testEvent();
    }
    const delivery = signed(PRIMARY_SECRET, event);
    const identity =
      'event_id' in event ? `event:${event.event_id}` : `edge:${event.trade.engine_trade_id}:${event.trade.operation}`;
    if ('trade' in event && 'pick_id' in event.trade) pickIds.add(event.trade.pick_id);
    if ('trade' in event && 'engine_trade_id' in event.trade) tradeIds.add(event.trade.engine_trade_id);
    originals.push({ delivery, identity, event });
  }
  const any = () => originals[Math.floor(rng() * originals.length)] as (typeof originals)[number];
  const sends: Send[] = originals.map(({ delivery, identity }) => ({ delivery, identity }));
  for (let i = 0; i < EXACT_DUPLICATES; i++) {
    const o = any();
    sends.push({ delivery: o.delivery, identity: o.identity });
  }
  const withId = originals.filter((o) => 'event_id' in o.event);
  const edges = originals.filter((o) => !('event_id' in o.event));
  for (let i = 0; i < RETRIES; i++) {
    const o = withId[Math.floor(rng() * withId.length)] as (typeof originals)[number];
    // the dispatcher's retry: same event id, the next attempt number, a new delivery id, signed anew
    sends.push({ delivery: signed(PRIMARY_SECRET, { ...o.event, attempt: 2 + (i % 5) }), identity: o.identity });
  }
  for (let i = 0; i < EDGE_REPLAYS; i++) {
    const o = edges[Math.floor(rng() * edges.length)] as (typeof originals)[number];
    // a captured body replayed under a fresh header id: the signature still holds, the event is the same
    sends.push({
      delivery: {
        ...o.delivery,
        eventId: 'fresh',
        headers: { ...o.delivery.headers, 'x-svc-event-id': randomUUID(), 'x-svc-delivery': randomUUID() },
      },
      identity: o.identity,
    });
  }
  for (let i = 0; i < MISMATCHED; i++) {
    const o = withId[Math.floor(rng() * withId.length)] as (typeof originals)[number];
    sends.push({
      delivery: { ...o.delivery, headers: { ...o.delivery.headers, 'x-svc-event-id': randomUUID() } },
      identity: null,
    });
  }
  expect(sends).toHaveLength(2_000);
  for (let i = sends.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [sends[i], sends[j]] = [sends[j] as Send, sends[i] as Send];
  }

  const answers = await pool(sends, 80, (s) => http.post(l.url, s.delivery));

  // every answer is what its kind calls for
  const storedBy = new Map<string, number>();
  const problems: string[] = [];
  for (const [i, s] of sends.entries()) {
    const a = answers[i];
    if (s.identity === null) {
      if (a?.status !== 400) problems.push(`mismatched header id answered ${a?.status} ${a?.body}`);
      continue;
    }
    if (a?.status !== 200) {
      problems.push(`${s.identity} answered ${a?.status} ${a?.body}`);
      continue;
    }
    if (a.json?.status === 'stored') storedBy.set(s.identity, (storedBy.get(s.identity) ?? 0) + 1);
    else if (a.json?.status !== 'duplicate') problems.push(`${s.identity} answered ${a.body}`);
  }
  expect(problems.slice(0, 10), `${problems.length} unexpected answers`).toEqual([]);
  const identities = new Set(originals.map((o) => o.identity));
  expect(identities.size).toBe(UNIQUE);
  const storedTwice = [...storedBy].filter(([, n]) => n > 1);
  expect(storedTwice, 'identities answered "stored" more than once').toEqual([]);
  expect(storedBy.size).toBe(UNIQUE);

  // what the file holds, read through its own connection
  const rows = l.inspect.events();
  expect(rows).toHaveLength(UNIQUE);
  expect(new Set(rows.map((r) => r.identity))).toEqual(identities);
  const copies = new Map<string, { ids: Set<string>; bodies: Set<string> }>();
  for (const s of sends) {
    if (s.identity === null) continue;
    const c = copies.get(s.identity) ?? { ids: new Set(), bodies: new Set() };
    c.ids.add(String(s.delivery.headers['x-svc-event-id']).toLowerCase());
    c.bodies.add(s.delivery.body);
    copies.set(s.identity, c);
  }
  for (const row of rows) {
    const c = copies.get(row.identity);
    expect(c?.ids.has(row.event_id), `${row.identity}: stored id is one it was sent under`).toBe(true);
    expect(c?.bodies.has(row.body), `${row.identity}: stored body is one that was sent`).toBe(true);
  }
  const counts = l.inspect.counts();
  const kills = l.inspect.alerts().filter((a) => a.kind === 'kill');
  expect(counts).toEqual({
    webhook_events: UNIQUE,
    rejected_webhooks: MISMATCHED,
    insurance_picks: pickIds.size,
    edge_trades: tradeIds.size,
    alerts: MISMATCHED + kills.length,
  });
  // one kill alert for each killed pick, and one for each addon that arrived after its parent's kill (concurrent
  // delivery decides which those are: exactly the killed addons whose kill was not its parent's own alert)
  const killed = l.inspect.db
    .prepare("SELECT pick_id, parent_pick_id FROM insurance_picks WHERE status = 'killed'")
    .all() as { pick_id: string; parent_pick_id: string | null }[];
  const lateAddons = killed.filter((p) => p.parent_pick_id !== null && kills.some((a) => a.ref === p.pick_id));
  expect(new Set(kills.map((a) => a.ref))).toEqual(new Set([...killedPicks, ...lateAddons.map((p) => p.pick_id)]));
  expect(kills).toHaveLength(killedPicks.size + lateAddons.length);
  for (const addon of lateAddons) expect(killedPicks.has(addon.parent_pick_id as string)).toBe(true);
  // every addon of a killed pick is killed, whichever arrived first
  const addons = l.inspect.db
    .prepare('SELECT parent_pick_id, status FROM insurance_picks WHERE parent_pick_id IS NOT NULL')
    .all() as { parent_pick_id: string; status: string }[];
  expect(addons.filter((a) => killedPicks.has(a.parent_pick_id)).every((a) => a.status === 'killed')).toBe(true);
  expect(addons.filter((a) => !killedPicks.has(a.parent_pick_id)).every((a) => a.status === 'open')).toBe(true);

  expect(l.listener.counts).toMatchObject({
    accepted: UNIQUE,
    duplicates: 2_000 - UNIQUE - MISMATCHED,
    rejected: MISMATCHED,
  });
  // concurrent deliveries shared commits
  expect(l.listener.commits.largest).toBeGreaterThan(1);
  expect(l.listener.commits.commits).toBeLessThan(2_000 - MISMATCHED);
});

it('treats ids that differ only in letter case as one event', async () => {
  const own = await startTempListener();
  try {
    const upper = randomUUID().toUpperCase();
    const event = testEvent({ eventId: upper });
    expect((await http.post(own.url, signed(PRIMARY_SECRET, event))).json).toEqual({ status: 'stored' });
    // the retry of the same event with the id written in lower case, in the body and the header
    const lower = signed(PRIMARY_SECRET, { ...event, event_id: upper.toLowerCase(), attempt: 2 });
    expect((await http.post(own.url, lower)).json).toEqual({ status: 'duplicate' });
    // an edge event's header id in either case
    const edge = edgeEvent('edge.trade.entered', { tradeId: 31 });
    const id = randomUUID();
    expect((await http.post(own.url, signed(PRIMARY_SECRET, edge, { eventId: id.toUpperCase() }))).json).toEqual({
      status: 'stored',
    });
    const other = edgeEvent('edge.trade.entered', { tradeId: 32 });
    expect((await http.post(own.url, signed(PRIMARY_SECRET, other, { eventId: id }))).json).toEqual({
      status: 'duplicate',
    });
    expect(own.inspect.counts()).toMatchObject({ webhook_events: 2, edge_trades: 1 });
  } finally {
    await own.close();
  }
});
