import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, expect, inject, it } from 'vitest';
import { type RunningService, startService } from '../../src/server/service.js';
import { openStore } from '../../src/server/store/open-store.js';
import { WebhookStore } from '../../src/server/store/webhooks.js';
import { WorldStore } from '../../src/server/store/world-store.js';
import { loadCities } from '../../src/server/world/cities.js';
import { World } from '../../src/server/world/world.js';
import { startCli } from '../cli/run-cli.js';
import { onFixtureClock } from '../helpers/fixture-clock.js';
import { fakeNotifySend, freePort, isolatedEnv, waitUntil } from '../helpers/listener-harness.js';
import { TEST_KEY } from '../helpers/service.js';
import { TEMPLATE_SEED } from '../helpers/world-template.js';

/**
 * The whole path: the reference service's world, under a fast clock, produces every event type; its dispatcher
 * signs and delivers them to `svc-monitor listen` (the built CLI, a fake notify-send first on its PATH); every
 * event the service counts as delivered is in the monitor's inbox exactly once, and the world's kills popped up.
 */

/**
 * The service starts two hours after the template's instant and runs 20,000 times faster than real time: the wait
 * below for a kill and an addon allows 90 s, some 20 simulated days, where DESIGN 5 asks at least 2 of each in any
 * 48 simulated hours. Nothing here counts on when the world makes them.
 */
const SERVICE_START = Date.parse('2026-11-21T14:00:00Z');
const root = mkdtempSync(join(tmpdir(), 'svc-e2e-listen-'));
let service: RunningService | undefined;
let listener: { child: ChildProcess; exited: Promise<number | null> } | undefined;
afterAll(async () => {
  if (listener && listener.child.exitCode === null && listener.child.signalCode === null)
    listener.child.kill('SIGKILL');
  await service?.close();
  rmSync(root, { recursive: true, force: true });
});

it('stores every event the service delivered exactly once, of every type, and notifies the kills', async () => {
  // the service's data dir, with the monitor's listener registered before the world starts moving
  const dataDir = join(root, 'server');
  cpSync(inject('templateDir'), dataDir, { recursive: true });
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/`;
  const setup = openStore(dataDir);
  new World(new WorldStore(setup), loadCities(), TEMPLATE_SEED).advanceTo(SERVICE_START);
  const { id, secret } = new WebhookStore(setup).add(url, null, false);
  setup.close();

  const fake = fakeNotifySend(root);
  const dbFile = join(root, 'monitor', 'cache.db');
  mkdirSync(join(root, 'monitor'), { recursive: true });
  // the world's day (2026-11-21), not the host's: else its events are replays (fixture-clock.ts)
  onFixtureClock(dbFile);
  const started = await startCli(
    ['listen', '--port', String(port), '--secret', secret, '--db', dbFile],
    /listening on (http:\/\/\S+)/,
    { ...isolatedEnv(root), PATH: `${fake.bin}:${process.env.PATH}` },
  );
  listener = started;
  expect(started.match[1]).toBe(url);

  service = await startService({
    dataDir,
    port: 0,
    seed: TEMPLATE_SEED,
    start: SERVICE_START,
    speed: 20_000,
    tickMs: 50,
    apiKey: TEST_KEY,
    rateLimitPerMinute: 1_000_000,
    logLevel: 'silent',
    allowPrivateWebhooks: true,
  });
  const svc = service;
  // every type, a kill included: kills come when a running METAR high passes a pick's legs, so wait for one
  const deliveredOf = (type: string) =>
    svc.db
      .prepare(
        "SELECT count(*) FROM webhook_deliveries WHERE webhook_id = ? AND event_type = ? AND status = 'delivered'",
      )
      .pluck()
      .get(id, type) as number;
  await waitUntil('the world to kill a pick', () =>
    deliveredOf('insurance.pick.killed') > 0 && deliveredOf('insurance.addon.created') > 0 ? true : undefined,
  );
  // and a manual test event, as `server webhooks test` queues it
  const testId = randomUUID();
  const store = new WebhookStore(svc.db);
  store.enqueue(id, testId, 'webhook.test', {
    event_id: testId,
    event_type: 'webhook.test',
    event_version: 1,
    created_at: new Date(svc.clock.now()).toISOString(),
    attempt: 1,
    message: 'test from the webhooks page',
  });
  svc.dispatcher.wake();
  await waitUntil('the test event to be delivered', () =>
    svc.db.prepare('SELECT status FROM webhook_deliveries WHERE event_id = ?').pluck().get(testId) === 'delivered'
      ? true
      : undefined,
  );
  // every event queued so far is delivered in the end: an attempt that timed out on a starved machine is retried (its
  // retry time is a world instant, milliseconds away at this speed), so wait for that state before stopping
  const cutoff = svc.db
    .prepare('SELECT max(id) FROM webhook_deliveries WHERE webhook_id = ?')
    .pluck()
    .get(id) as number;
  await waitUntil('every event queued before the test event to be delivered', () =>
    svc.db
      .prepare("SELECT count(*) FROM webhook_deliveries WHERE webhook_id = ? AND id <= ? AND status != 'delivered'")
      .pluck()
      .get(id, cutoff) === 0
      ? true
      : undefined,
  );
  // stop sending; what is in flight finishes and is recorded
  await svc.dispatcher.stop();

  const delivered = svc.db
    .prepare("SELECT event_id, event_type FROM webhook_deliveries WHERE webhook_id = ? AND status = 'delivered'")
    .all(id) as { event_id: string; event_type: string }[];
  // what the world queued after the cutoff is delivered or waiting for its retry: none given up on, the webhook active
  const givenUp = svc.db
    .prepare("SELECT count(*) FROM webhook_deliveries WHERE webhook_id = ? AND status NOT IN ('delivered', 'pending')")
    .pluck()
    .get(id);
  const webhookStatus = svc.db.prepare('SELECT status FROM webhooks WHERE id = ?').pluck().get(id);
  const refusals = svc.db
    .prepare(
      'SELECT status_code, error, duration_ms FROM webhook_attempts WHERE webhook_id = ? AND (status_code IS NULL OR status_code != 200)',
    )
    .all(id) as { status_code: number | null; error: string | null; duration_ms: number }[];
  const types = new Set(delivered.map((d) => d.event_type));
  console.log(
    `delivered ${delivered.length}:`,
    Object.fromEntries([...types].map((t) => [t, delivered.filter((d) => d.event_type === t).length])),
  );
  expect([...types].sort()).toEqual(
    [
      'edge.trade.entered',
      'edge.trade.exited',
      'insurance.addon.created',
      'insurance.pick.created',
      'insurance.pick.killed',
      'webhook.test',
    ].sort(),
  );
  // the listener never turned a genuine delivery away: every answer it gave was a 200. An attempt the service gave up
  // on after its 8 s (the listener short of CPU in a loaded suite run: seven in one run beside other jobs) is no
  // refusal: the service tries it again, and every event is delivered (the wait above) and stored once (below). Nor is
  // Node's 408 once the listener's own headers timeout (5 s) has passed on the service's clock too: a listener starved
  // that long (eight in a run of three test files at a time) cuts the request off as a slow client. Any other answer,
  // a 408 sooner, or another failure (a refused connection, a reset) still fails here.
  const starved408 = (r: { status_code: number | null; duration_ms: number }) =>
    r.status_code === 408 && r.duration_ms >= 5_000;
  expect(refusals.filter((r) => r.status_code !== null && !starved408(r))).toEqual([]);
  for (const r of refusals.filter((r) => r.status_code === null))
    expect(r.error, 'an attempt without an answer').toMatch(/^no answer within \d+ s$/);
  expect(givenUp).toBe(0);
  expect(webhookStatus).toBe('active');

  started.child.kill('SIGTERM');
  expect(await started.exited).toBe(0);
  const cache = new Database(dbFile, { readonly: true });
  try {
    const stored = cache.prepare('SELECT event_id, event_type, body FROM webhook_events').all() as {
      event_id: string;
      event_type: string;
      body: string;
    }[];
    const byId = new Map(stored.map((e) => [e.event_id, e]));
    expect(stored).toHaveLength(delivered.length);
    for (const d of delivered) {
      expect(byId.get(d.event_id.toLowerCase())?.event_type, d.event_id).toBe(d.event_type);
    }
    // the service's payload, as it stored it, is what arrived (attempt aside)
    const payloads = svc.db
      .prepare('SELECT event_id, payload FROM webhook_deliveries WHERE webhook_id = ?')
      .all(id) as { event_id: string; payload: string }[];
    for (const p of payloads) {
      const arrived = byId.get(p.event_id.toLowerCase());
      if (!arrived) continue;
      expect({ ...JSON.parse(arrived.body), attempt: 1 }).toEqual({ ...JSON.parse(p.payload), attempt: 1 });
    }
    // every kill the world sent popped up once, saying where
    const kills = stored
      .filter((e) => e.event_type === 'insurance.pick.killed')
      .map((e) => JSON.parse(e.body) as { market: { city: string; market_date: string } });
    expect(kills.length).toBeGreaterThan(0);
    const calls = await waitUntil('a notification per kill', () =>
      fake.calls().length >= kills.length ? fake.calls() : undefined,
    );
    expect(calls).toHaveLength(kills.length);
    // titled what and where: the city's name when the cache holds the cities, else its id (a bare listener)
    const names = new Map(
      cache.prepare("SELECT city_id, json_extract(json, '$.city_name') FROM cities").raw().all() as [string, string][],
    );
    expect(calls.map((c) => c[0]).sort()).toEqual(
      kills.map((k) => `Kill · ${names.get(k.market.city) ?? k.market.city}`).sort(),
    );
    for (const call of calls) expect(call[1]).toMatch(/^SELL AT MARKET: legs .* \(\d{4}-\d\d-\d\d\)$/);
    expect(cache.prepare("SELECT count(*) FROM alerts WHERE kind = 'kill'").pluck().get()).toBe(kills.length);
  } finally {
    cache.close();
  }
  const output = started.output();
  expect(output.stdout + output.stderr).not.toContain(secret);
});
