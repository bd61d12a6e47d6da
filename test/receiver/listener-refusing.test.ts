import { randomUUID } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { openCache } from '../../src/cache/index.js';
import { WebhookStore } from '../../src/server/store/webhooks.js';
import { startCli } from '../cli/run-cli.js';
import { onFixtureClock } from '../helpers/fixture-clock.js';
import {
  fakeNotifySend,
  freePort,
  httpClient,
  Inspector,
  isolatedEnv,
  waitUntil,
} from '../helpers/listener-harness.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { PRIMARY_SECRET, STRANGER_SECRET, signed, testEvent } from '../helpers/webhook-events.js';

/**
 * DESIGN 3 `listen` and DESIGN 4 "a listener that refuses what it is sent": a listener started with a secret that
 * is not the service's, the reference service delivering to it. Each refusal is a stamped line, kept without its
 * body; three raise one alert, notified as a kill is; a delivery that verifies ends it.
 */

const root = mkdtempSync(join(tmpdir(), 'svc-refusing-'));
const http = httpClient();
const stops: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const stop of stops.reverse()) await stop().catch(() => undefined);
  await http.close();
  rmSync(root, { recursive: true, force: true });
});

/** ISO 8601 UTC, then the line: every line `listen` writes to stderr. */
const STAMPED = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z /;
const REFUSED =
  /refused a delivery from 127\.0\.0\.1 \(X-Svc-Event-Id (\S+), X-Svc-Event (\S+)\): no configured secret matches(?:, and (\d+) more refused since (\S+))?$/;

async function listen(name: string, secret: string, extra: string[] = [], config?: object) {
  const dir = join(root, name);
  mkdirSync(join(dir, 'config', 'svc-monitor'), { recursive: true });
  if (config) writeFileSync(join(dir, 'config', 'svc-monitor', 'config.json'), JSON.stringify(config));
  const notify = fakeNotifySend(dir);
  const db = join(dir, 'cache.db');
  // the test world's day, not the host's: else its events are replays (fixture-clock.ts)
  onFixtureClock(db);
  const start = () =>
    startCli(['listen', '--port', '0', '--secret', secret, '--db', db, ...extra], /listening on (http:\/\/\S+)/, {
      ...isolatedEnv(dir),
      PATH: `${notify.bin}:${process.env.PATH}`,
    });
  const started = await start();
  const stop = async () => {
    started.child.kill('SIGTERM');
    return started.exited;
  };
  stops.push(stop);
  const inspect = new Inspector(db);
  stops.push(async () => inspect.close());
  return {
    db,
    url: started.match[1] as string,
    notify,
    inspect,
    stop,
    lines: () =>
      started
        .output()
        .stderr.split('\n')
        .filter((l) => l !== ''),
    stdout: () => started.output().stdout,
  };
}

const refusingAlerts = (inspect: Inspector) => inspect.alerts().filter((a) => a.kind === 'listener-refusing');
const health = (db: string) => {
  const cache = openCache(db, 'read');
  try {
    return cache.inbox.listenerHealth('2026-11-22T00:30:00Z');
  } finally {
    cache.close();
  }
};

it('logs, keeps and alerts a listener whose secret is not the service’s, once, until a delivery verifies', async () => {
  // a world clock at a hundredth of real time: the service's retries of what was refused (1 min of its clock, spec 6)
  // come 100 minutes later, never inside this test
  const service: TestService = await startTestService({ allowPrivateWebhooks: true, speed: 0.01 });
  stops.push(() => service.close());
  const port = await freePort();
  const wrong = await listen('wrong', STRANGER_SECRET, ['--port', String(port)]);
  expect(wrong.url).toBe(`http://127.0.0.1:${port}/`);
  // registered as `server webhooks add` would, for test events only: the world's own events stay out of the count
  const store = new WebhookStore(service.service.db);
  const { id, secret } = store.add(wrong.url, ['webhook.test'], true);
  expect(secret).not.toBe(STRANGER_SECRET);
  const sent: string[] = [];
  const sendTest = () => {
    const eventId = randomUUID();
    sent.push(eventId);
    store.enqueue(id, eventId, 'webhook.test', {
      ...testEvent({ eventId }),
      created_at: new Date(service.service.clock.now()).toISOString(),
    });
    service.service.dispatcher.wake();
  };
  const attempts = () =>
    service.service.db.prepare('SELECT status_code FROM webhook_attempts WHERE webhook_id = ?').pluck().all(id) as (
      | number
      | null
    )[];

  // three test deliveries from the service, each answered 401
  for (let i = 0; i < 3; i++) sendTest();
  await waitUntil('three attempts answered 401', () => (attempts().length === 3 ? attempts() : undefined));
  expect(attempts()).toEqual([401, 401, 401]);
  // one alert, stored once the third was kept, and notified on the desktop as a kill is
  const [alert] = await waitUntil('the refusing alert', () => {
    const alerts = refusingAlerts(wrong.inspect);
    return alerts.length > 0 ? alerts : undefined;
  });
  expect(alert).toEqual({
    severity: 'high',
    kind: 'listener-refusing',
    ref: null,
    city_id: null,
    // 3 refused within seconds of each other, the last a test event
    message:
      'webhook listener refusing: 3 deliveries refused for their signature within 10 minutes (the last ' +
      "webhook.test); the configured webhook secret does not match the service's, kills are not arriving",
  });
  const popup = await waitUntil('the desktop notification', () =>
    wrong.notify.calls().find((c) => c[0] === 'Webhook listener refusing'),
  );
  expect(popup).toContain(
    "3 deliveries refused for their signature within 10 minutes (the last webhook.test); the configured webhook secret does not match the service's, kills are not arriving",
  );
  // every refusal said: the lines' first refusal and their `N more` add up to the three, at most a line a second
  const counted = () =>
    wrong
      .lines()
      .map((l) => l.match(REFUSED))
      .reduce((n, m) => n + (m ? 1 + Number(m[3] ?? 0) : 0), 0);
  await waitUntil('the three refusals said', () => (counted() === 3 ? true : undefined));
  const refusalLines = wrong.lines().filter((l) => REFUSED.test(l));
  for (const line of wrong.lines()) expect(line).toMatch(STAMPED);
  const stamps = refusalLines.map((l) => Date.parse(l.slice(0, 24)));
  // a second apart at least: the stamp is read a moment after the limiter's own clock, so within 10 ms of it
  for (let i = 1; i < stamps.length; i++)
    expect((stamps[i] as number) - (stamps[i - 1] as number)).toBeGreaterThanOrEqual(990);
  for (const line of refusalLines) {
    const [, eventId, type] = line.match(REFUSED) as RegExpMatchArray;
    expect(sent).toContain(eventId);
    expect(type).toBe('webhook.test');
  }
  expect(wrong.lines().join('\n')).toContain('alert: webhook listener refusing: 3 deliveries');
  // kept without the body: when, from where, the event's id and type
  const kept = wrong.inspect.db
    .prepare('SELECT cause, remote_address, event_id, event_type FROM listener_refusals ORDER BY id')
    .all();
  expect(kept).toEqual(
    sent.map((eventId) => ({
      cause: 'signature',
      remote_address: '127.0.0.1',
      event_id: eventId,
      event_type: 'webhook.test',
    })),
  );
  expect(
    Object.keys(wrong.inspect.db.prepare('SELECT * FROM listener_refusals LIMIT 1').get() as object),
  ).not.toContain('body');
  expect(wrong.inspect.counts().webhook_events).toBe(0);

  // two more while it persists: kept and said, no second alert, no second popup
  for (let i = 0; i < 2; i++) sendTest();
  await waitUntil('five refusals kept', () =>
    wrong.inspect.db.prepare('SELECT count(*) FROM listener_refusals').pluck().get() === 5 ? true : undefined,
  );
  await waitUntil('the five refusals said', () => (counted() === 5 ? true : undefined));
  expect(refusingAlerts(wrong.inspect)).toHaveLength(1);
  expect(wrong.notify.calls().filter((c) => c[0] === 'Webhook listener refusing')).toHaveLength(1);
  const refusing = health(wrong.db);
  expect(refusing).toMatchObject({ firstVerifiedAt: null, lastVerifiedAt: null, refusalsLastHour: 5, refusing: true });

  // the operator puts the service's secret in: the next delivery verifies, and the listener stands refusing no more
  expect(await wrong.stop()).toBe(0);
  const right = await startCli(
    ['listen', '--port', String(port), '--secret', secret, '--db', wrong.db, '--no-notify'],
    /listening on (http:\/\/\S+)/,
    isolatedEnv(join(root, 'wrong')),
  );
  stops.push(async () => {
    right.child.kill('SIGTERM');
    return right.exited;
  });
  sendTest();
  await waitUntil('a delivery answered 200', () => (attempts().includes(200) ? true : undefined));
  const cleared = health(wrong.db);
  expect(cleared.refusing).toBe(false);
  expect(cleared.lastVerifiedAt).not.toBeNull();
  expect(cleared.firstVerifiedAt).toBe(cleared.lastVerifiedAt);
  // a new run of three (strangers now) raises a new alert
  for (let i = 0; i < 3; i++) {
    const answer = await http.post(right.match[1] as string, signed(STRANGER_SECRET, testEvent()));
    expect(answer.status).toBe(401);
  }
  await waitUntil('a second refusing alert', () => (refusingAlerts(wrong.inspect).length === 2 ? true : undefined));
  expect(health(wrong.db).refusing).toBe(true);
  expect(right.output().stdout + right.output().stderr).not.toContain(secret);
});

it('--no-notify, or alerts.notify.kill false, keeps the alert from the desktop; the alert is stored all the same', async () => {
  const quiet = await listen('quiet', PRIMARY_SECRET, ['--no-notify']);
  const unswitched = await listen('unswitched', PRIMARY_SECRET, [], { alerts: { notify: { kill: false } } });
  for (const l of [quiet, unswitched]) {
    // an all-zero signature, a body signed with another secret, no signature header at all
    const zero = signed(PRIMARY_SECRET, testEvent(), { signature: `sha256=${'0'.repeat(64)}` });
    const other = signed(STRANGER_SECRET, testEvent());
    const none = signed(PRIMARY_SECRET, testEvent());
    delete (none.headers as Record<string, string | undefined>)['x-svc-signature'];
    // and a body changed after it was signed
    const signedRight = signed(PRIMARY_SECRET, testEvent({ message: 'sell' }));
    const tampered = { ...signedRight, body: signedRight.body.replace('"sell"', '"hold"') };
    for (const d of [zero, other, none, tampered]) expect((await http.post(l.url, d)).status).toBe(401);
    await waitUntil('the refusing alert', () => (refusingAlerts(l.inspect).length === 1 ? true : undefined));
    expect(refusingAlerts(l.inspect)[0]?.message).toContain('3 deliveries refused');
  }
  // both stopped: what they had under way is done, and neither ever ran notify-send
  expect(await quiet.stop()).toBe(0);
  expect(await unswitched.stop()).toBe(0);
  expect(quiet.notify.calls()).toEqual([]);
  expect(unswitched.notify.calls()).toEqual([]);
});

it('forwards the refusing alert to the notify command as a kill, also with --no-notify', async () => {
  const dir = join(root, 'forward');
  mkdirSync(dir, { recursive: true });
  const received = join(dir, 'received.jsonl');
  const command = join(dir, 'to-phone.sh');
  writeFileSync(command, `#!/bin/sh\ncat >> '${received}'\n`);
  chmodSync(command, 0o755);
  const l = await listen('forward', PRIMARY_SECRET, ['--no-notify'], { alerts: { notify_command: [command] } });
  for (let i = 0; i < 3; i++) expect((await http.post(l.url, signed(STRANGER_SECRET, testEvent()))).status).toBe(401);
  const text = await waitUntil('the command to have run', () =>
    existsSync(received) && readFileSync(received, 'utf8').endsWith('\n') ? readFileSync(received, 'utf8') : undefined,
  );
  expect(await l.stop()).toBe(0);
  const stored = l.inspect.db
    .prepare("SELECT id, created_at, message FROM alerts WHERE kind = 'listener-refusing'")
    .all() as { id: number; created_at: string; message: string }[];
  expect(stored).toHaveLength(1);
  const [one] = stored as [{ id: number; created_at: string; message: string }];
  expect(
    text
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line)),
  ).toEqual([
    {
      id: one.id,
      kind: 'listener-refusing',
      severity: 'high',
      city_id: null,
      ref: null,
      created_at: one.created_at,
      message: one.message,
    },
  ]);
  expect(l.notify.calls()).toEqual([]);
  expect(text).not.toContain(PRIMARY_SECRET);
});
