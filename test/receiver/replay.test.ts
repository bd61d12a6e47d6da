import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { startCli } from '../cli/run-cli.js';
import { onFixtureClock } from '../helpers/fixture-clock.js';
import { fakeNotifySend, httpClient, Inspector, isolatedEnv, waitUntil } from '../helpers/listener-harness.js';
import { insuranceEvent, leg, PRIMARY_SECRET, signed, testEvent } from '../helpers/webhook-events.js';

/**
 * The spec's signature carries no time: a captured delivery, signed right, replayed into a fresh cache would be
 * taken. `listen` refuses one more than 24 h older than the service's clock (409), says so, and stores nothing of it.
 */

const root = mkdtempSync(join(tmpdir(), 'svc-replay-'));
const http = httpClient();
const stops: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const stop of stops.reverse()) await stop().catch(() => undefined);
  await http.close();
  rmSync(root, { recursive: true, force: true });
});

async function listen(name: string, onFixtures: boolean) {
  const dir = join(root, name);
  mkdirSync(dir, { recursive: true });
  const db = join(dir, 'cache.db');
  if (onFixtures) onFixtureClock(db);
  const notify = fakeNotifySend(dir);
  const started = await startCli(
    ['listen', '--port', '0', '--secret', PRIMARY_SECRET, '--db', db],
    /listening on (http:\/\/\S+)/,
    { ...isolatedEnv(dir), PATH: `${notify.bin}:${process.env.PATH}` },
  );
  stops.push(async () => {
    started.child.kill('SIGTERM');
    return started.exited;
  });
  const inspect = new Inspector(db);
  stops.push(async () => inspect.close());
  return { url: started.match[1] as string, inspect, notify, stderr: () => started.output().stderr };
}

const replayLine = (stderr: string, eventId: string) =>
  stderr.split('\n').find((l) => l.includes('refused as a replay') && l.includes(eventId));

it('refuses a delivery signed right but 25 h older than the service’s clock: its line, a 409, nothing stored', async () => {
  // the cache keeps the service's clock at 2026-11-22T00:00Z when the test began (fixture-clock.ts)
  const l = await listen('fixtures', true);
  // 2026-11-20T23:00:00Z is 25 h before 2026-11-22T00:00:00Z (and the test's seconds since do not make it 26)
  const replayed = signed(PRIMARY_SECRET, { ...testEvent(), created_at: '2026-11-20T23:00:00Z' });
  const answer = await http.post(l.url, replayed);
  expect(answer.status).toBe(409);
  expect(answer.json).toEqual({
    error: "refused as a replay: created_at 2026-11-20T23:00:00Z is 25h older than the service's clock",
  });
  const line = await waitUntil('the replay line', () => replayLine(l.stderr(), replayed.eventId));
  expect(line).toMatch(
    new RegExp(
      `^\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z refused as a replay: created_at 2026-11-20T23:00:00Z is 25h older than the service's clock from 127\\.0\\.0\\.1 \\(X-Svc-Event-Id ${replayed.eventId}, X-Svc-Event webhook\\.test\\)$`,
    ),
  );
  // a replayed kill: refused as well, so no alert, no popup, no pick
  const kill = signed(
    PRIMARY_SECRET,
    insuranceEvent('insurance.pick.killed', { createdAt: '2026-11-20T22:00:00Z', legs: [leg('A', 50)] }),
  );
  expect((await http.post(l.url, kill)).status).toBe(409);
  // a third replay: replays are not signature refusals, so three of them raise no refusing alert
  const third = signed(PRIMARY_SECRET, { ...testEvent(), created_at: '2026-11-20T20:00:00Z' });
  expect((await http.post(l.url, third)).status).toBe(409);
  await waitUntil('the three replays kept', () =>
    l.inspect.db.prepare("SELECT count(*) FROM listener_refusals WHERE cause = 'replay'").pluck().get() === 3
      ? true
      : undefined,
  );
  expect(l.inspect.db.prepare('SELECT event_id, event_type FROM listener_refusals ORDER BY id').all()).toEqual([
    { event_id: replayed.eventId, event_type: 'webhook.test' },
    { event_id: kill.eventId, event_type: 'insurance.pick.killed' },
    { event_id: third.eventId, event_type: 'webhook.test' },
  ]);
  expect(l.inspect.counts()).toEqual({
    webhook_events: 0,
    rejected_webhooks: 0,
    insurance_picks: 0,
    edge_trades: 0,
    alerts: 0,
  });
  // the same event made within the day is taken: 2026-11-21T12:00:00Z is 12 h before the clock
  const fresh = signed(PRIMARY_SECRET, { ...testEvent(), created_at: '2026-11-21T12:00:00Z' });
  expect((await http.post(l.url, fresh)).status).toBe(200);
  expect(l.inspect.counts().webhook_events).toBe(1);
  expect(l.notify.calls()).toEqual([]);
});

it('without any clock offset kept (a cache that never synced) judges on the host’s clock', async () => {
  const l = await listen('host-clock', false);
  const hour = 3_600_000;
  // 25 h 5 min before the host's clock: refused, 25 whole hours old; an hour before: taken
  const old = new Date(Date.now() - 25 * hour - 5 * 60_000).toISOString();
  const replayed = signed(PRIMARY_SECRET, { ...testEvent(), created_at: old });
  expect((await http.post(l.url, replayed)).status).toBe(409);
  const line = await waitUntil('the replay line', () => replayLine(l.stderr(), replayed.eventId));
  expect(line).toContain(`refused as a replay: created_at ${old} is 25h older than the service's clock`);
  const recent = signed(PRIMARY_SECRET, { ...testEvent(), created_at: new Date(Date.now() - hour).toISOString() });
  expect((await http.post(l.url, recent)).status).toBe(200);
  expect(l.inspect.counts().webhook_events).toBe(1);
});
