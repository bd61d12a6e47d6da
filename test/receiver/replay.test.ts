import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { runCli, startCli } from '../cli/run-cli.js';
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

async function listen(name: string, onFixtures: boolean, hungNotify = false) {
  const dir = join(root, name);
  mkdirSync(dir, { recursive: true });
  const db = join(dir, 'cache.db');
  if (onFixtures) onFixtureClock(db);
  const notify = fakeNotifySend(dir);
  // a notify-send that never returns (a desktop bus gone): it says its pid, then sleeps until the test ends it
  if (hungNotify)
    writeFileSync(
      join(notify.bin, 'notify-send'),
      `#!/bin/sh\necho $$ > '${dir}/hung.pid'\nexec sleep 600 </dev/null >/dev/null 2>&1\n`,
    );
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
  const env = isolatedEnv(dir);
  const hungPid = () =>
    existsSync(join(dir, 'hung.pid')) ? Number(readFileSync(join(dir, 'hung.pid'), 'utf8')) : undefined;
  return {
    url: started.match[1] as string,
    started,
    inspect,
    notify,
    db,
    env,
    hungPid,
    stderr: () => started.output().stderr,
  };
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
  // a third replay within the 10 minutes: the listener is judging on a clock the service is not on, so it raises
  // the refusing alert naming the cause (below, in the test on the host's clock)
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
    alerts: 1,
  });
  await waitUntil('the refusing alert notified', () =>
    l.notify.calls().some((c) => c[0] === 'Webhook listener refusing') ? true : undefined,
  );
  // the same event made within the day is taken: 2026-11-21T12:00:00Z is 12 h before the clock
  const fresh = signed(PRIMARY_SECRET, { ...testEvent(), created_at: '2026-11-21T12:00:00Z' });
  expect((await http.post(l.url, fresh)).status).toBe(200);
  expect(l.inspect.counts().webhook_events).toBe(1);
  // the replayed kill raised no kill alert: the one popup is the refusing alert's
  expect(l.notify.calls().map((c) => c[0])).toEqual(['Webhook listener refusing']);
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

it('a listener whose clock is a day ahead of the service refuses every delivery as a replay: loud, as for signatures', async () => {
  // a reference service resumed where it stopped: its world 30 h behind this host, and no sync has run, so the
  // listener judges on the host's clock. Each delivery is made "now" on the service's clock: 30 h before the host
  const l = await listen('world-behind', false);
  const serviceNow = () => new Date(Date.now() - 30 * 3_600_000).toISOString();
  for (let i = 0; i < 3; i++)
    expect((await http.post(l.url, signed(PRIMARY_SECRET, { ...testEvent(), created_at: serviceNow() }))).status).toBe(
      409,
    );
  // the third within 10 minutes raises the alert: its line, its popup, marked notified as a kill is
  const message =
    'webhook listener refusing: 3 deliveries refused as replays: their created_at is more than 24 h older than ' +
    "the clock this listener knows (the service's, or this machine's when no sync has run); run `svc-monitor sync` " +
    "against the service, or check the service's clock";
  await waitUntil('the alert line', () => (l.stderr().includes(`alert: ${message}`) ? true : undefined));
  const popup = await waitUntil('the popup', () => l.notify.calls().find((c) => c[0] === 'Webhook listener refusing'));
  expect(popup).toContain(message.replace('webhook listener refusing: ', ''));
  await waitUntil('the alert marked notified', () =>
    l.inspect.db.prepare("SELECT 1 FROM alerts WHERE kind = 'listener-refusing' AND notified_at IS NOT NULL").get() ===
    undefined
      ? undefined
      : true,
  );
  // status (on the cache alone) says the listener is refusing and what to do: exit 1
  const status = await runCli(['status', '--offline', '--json', '--db', l.db], l.env);
  expect(status.code).toBe(1);
  const report = JSON.parse(status.stdout) as { problems: string[]; listener: { refusing: boolean } };
  expect(report.listener.refusing).toBe(true);
  expect(report.problems.find((p) => p.startsWith('listener refusing: 3 refused in the last hour'))).toContain(
    "refused as replays on a clock more than 24 h ahead of the service's: run `svc-monitor sync` against the service",
  );
  // a fourth replay raises no second alert: one a run
  expect((await http.post(l.url, signed(PRIMARY_SECRET, { ...testEvent(), created_at: serviceNow() }))).status).toBe(
    409,
  );
  await waitUntil('the fourth kept', () =>
    l.inspect.db.prepare('SELECT count(*) FROM listener_refusals').pluck().get() === 4 ? true : undefined,
  );
  expect(l.inspect.counts().alerts).toBe(1);
});

it('a hung desktop notification of the refusing alert does not hold SIGTERM: the listener stops within the kills’ limit', async () => {
  const l = await listen('hung-notify', false, true);
  const dayAgo = () => new Date(Date.now() - 30 * 3_600_000).toISOString();
  for (let i = 0; i < 3; i++)
    expect((await http.post(l.url, signed(PRIMARY_SECRET, { ...testEvent(), created_at: dayAgo() }))).status).toBe(409);
  const pid = await waitUntil('the notification under way', l.hungPid);
  try {
    l.started.child.kill('SIGTERM');
    // the listener waits for notifications under way NOTIFY_WAIT_ON_CLOSE_MS (5 s), then exits 0 with the alert
    // unmarked, to be shown again at the next start
    expect(await l.started.exited).toBe(0);
    const unmarked = l.inspect.db
      .prepare("SELECT count(*) FROM alerts WHERE kind = 'listener-refusing' AND notified_at IS NULL")
      .pluck()
      .get();
    expect(unmarked).toBe(1);
  } finally {
    process.kill(pid);
  }
});
