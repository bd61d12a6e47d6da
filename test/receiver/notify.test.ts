import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openCache } from '../../src/cache/index.js';
import { startCli } from '../cli/run-cli.js';
import { onFixtureClock } from '../helpers/fixture-clock.js';
import { fakeNotifySend, httpClient, isolatedEnv, waitUntil } from '../helpers/listener-harness.js';
import { insuranceEvent, leg, PRIMARY_SECRET, signed, testEvent } from '../helpers/webhook-events.js';

/**
 * Kill signals as desktop notifications, through the real `svc-monitor listen` and node-notifier: a fake
 * `notify-send` first on the child's PATH records the arguments it was run with (DESIGN 6: the one mock allowed).
 */

const root = mkdtempSync(join(tmpdir(), 'svc-notify-'));
const env = isolatedEnv(root);
const http = httpClient();
const children: ChildProcess[] = [];
const outputs: (() => { stdout: string; stderr: string })[] = [];

beforeAll(() => mkdirSync(join(root, 'empty-bin'), { recursive: true }));
afterAll(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await http.close();
  for (const output of outputs) {
    const { stdout, stderr } = output();
    expect(stdout + stderr).not.toContain(PRIMARY_SECRET);
  }
  rmSync(root, { recursive: true, force: true });
});

async function listen(name: string, path: string, extra: string[] = []) {
  mkdirSync(join(root, name), { recursive: true });
  // the fixtures' day, not the host's: else they are replays (fixture-clock.ts)
  onFixtureClock(join(root, name, 'cache.db'));
  const started = await startCli(
    ['listen', '--port', '0', '--secret', PRIMARY_SECRET, '--db', join(root, name, 'cache.db'), ...extra],
    /listening on (http:\/\/\S+)/,
    { ...env, PATH: path },
  );
  children.push(started.child);
  outputs.push(started.output);
  return { ...started, url: started.match[1] as string, dbFile: join(root, name, 'cache.db') };
}

async function stop(child: { child: ChildProcess; exited: Promise<number | null> }) {
  child.child.kill('SIGTERM');
  return child.exited;
}

// shell metacharacters in the reason: node-notifier runs notify-send through a shell
const trap = (n: number) => `$(touch ${root}/pwned-${n})`;
const REASON = `METAR high so far 68°F is above 67°F "${trap(1)}" \`touch ${root}/pwned-2\`; touch ${root}/pwned-3 \\ $HOME 'q'`;

function kill(city: string, pickId?: string) {
  return insuranceEvent('insurance.pick.killed', {
    city,
    pickId,
    marketDate: '2026-11-21',
    legs: [leg('A', 64), leg('B', 66)],
    reason: REASON,
  });
}

it('runs notify-send for a stored kill: title what and where, message SELL AT MARKET, legs and reason, nothing run by the shell', async () => {
  const fake = fakeNotifySend(join(root, 'on'));
  // the cache knows Chicago by name (a sync stored the cities); Denver it does not know
  const cache = openCache(join(root, 'on', 'cache.db'));
  cache.resources.upsertCities([
    {
      city_id: 'chicago',
      city_name: 'Chicago',
      country: 'US',
      lat: 41.98,
      lon: -87.9,
      tz: 'America/Chicago',
      icao: 'KORD',
      station_name: "Chicago O'Hare",
    },
  ]);
  cache.close();
  const child = await listen('on', `${fake.bin}:${process.env.PATH}`);
  const event = kill('chicago');
  expect((await http.post(child.url, signed(PRIMARY_SECRET, event))).json).toEqual({ status: 'stored' });
  const [call] = await waitUntil('notify-send to be run', () => (fake.calls().length > 0 ? fake.calls() : undefined));
  const [title, message, ...options] = call ?? [];
  expect(title).toBe('Kill · Chicago');
  expect(message?.startsWith('SELL AT MARKET')).toBe(true);
  expect(message?.endsWith('(2026-11-21)')).toBe(true);
  expect(message).toContain('A 64-65°F');
  expect(message).toContain('B 66-67°F');
  // the reason arrives as text, every metacharacter intact
  expect(message).toContain(REASON);
  expect(options.join(' ')).toContain('critical');
  for (const n of [1, 2, 3]) expect(existsSync(join(root, `pwned-${n}`)), `shell ran payload ${n}`).toBe(false);

  // a duplicate of the kill, a creation and a test event notify nobody; the next kill does
  expect((await http.post(child.url, signed(PRIMARY_SECRET, { ...event, attempt: 2 }))).json).toEqual({
    status: 'duplicate',
  });
  expect((await http.post(child.url, signed(PRIMARY_SECRET, insuranceEvent('insurance.pick.created')))).status).toBe(
    200,
  );
  expect((await http.post(child.url, signed(PRIMARY_SECRET, testEvent()))).status).toBe(200);
  expect((await http.post(child.url, signed(PRIMARY_SECRET, kill('denver')))).json).toEqual({ status: 'stored' });
  // both kills notified and recorded so: every notification this listener owes has been made
  await waitUntil('both kills recorded as notified', () => {
    const db = new Database(child.dbFile, { readonly: true });
    try {
      const sql = "SELECT count(*) FROM alerts WHERE kind = 'kill' AND notified_at IS NOT NULL";
      return (db.prepare(sql).pluck().get() as number) === 2 || undefined;
    } finally {
      db.close();
    }
  });
  expect(fake.calls().map((c) => c[0])).toEqual(['Kill · Chicago', 'Kill · denver']);
  expect(await stop(child)).toBe(0);
});

it('--no-notify never runs notify-send', async () => {
  const fake = fakeNotifySend(join(root, 'off'));
  const reference = fakeNotifySend(join(root, 'reference'));
  const off = await listen('off', `${fake.bin}:${process.env.PATH}`, ['--no-notify']);
  const on = await listen('reference', `${reference.bin}:${process.env.PATH}`);
  const event = kill('boston');
  expect((await http.post(off.url, signed(PRIMARY_SECRET, event))).json).toEqual({ status: 'stored' });
  expect((await http.post(on.url, signed(PRIMARY_SECRET, event))).json).toEqual({ status: 'stored' });
  // the same kill reached a notifying listener meanwhile, so the quiet one has had as long to run it
  await waitUntil('the reference notification', () => (reference.calls().length > 0 ? true : undefined));
  expect(await stop(off)).toBe(0);
  expect(await stop(on)).toBe(0);
  expect(fake.calls()).toEqual([]);
  expect(existsSync(fake.log)).toBe(false);
});

it('without notify-send on PATH stores the kill, logs the failed notification and keeps serving', async () => {
  const child = await listen('none', join(root, 'empty-bin'));
  const event = kill('seattle');
  expect((await http.post(child.url, signed(PRIMARY_SECRET, event))).json).toEqual({ status: 'stored' });
  await waitUntil('the notification failure in the log', () =>
    /notification failed/i.test(child.output().stderr) ? true : undefined,
  );
  const next = signed(PRIMARY_SECRET, testEvent());
  expect((await http.post(child.url, next)).json).toEqual({ status: 'stored' });
  expect(child.child.exitCode).toBe(null);
  expect(await stop(child)).toBe(0);
  const db = new Database(child.dbFile, { readonly: true });
  try {
    const ids = db.prepare('SELECT event_id FROM webhook_events ORDER BY seq').pluck().all();
    expect(ids).toEqual([event.event_id, next.eventId]);
    expect(db.prepare("SELECT count(*) FROM alerts WHERE kind = 'kill'").pluck().get()).toBe(1);
  } finally {
    db.close();
  }
});
