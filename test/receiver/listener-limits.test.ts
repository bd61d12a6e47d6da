import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, afterEach, expect, it } from 'vitest';
import { type FileLimitedListener, flood, listenWithFileLimit, postFresh } from '../helpers/listener-flood.js';
import { isolatedEnv, waitUntil } from '../helpers/listener-harness.js';
import { type Delivery, PRIMARY_SECRET, signed, testEvent } from '../helpers/webhook-events.js';

/**
 * `svc-monitor listen` under a slow-sender flood: 300 unsigned connections, each trickling a 1 MiB body, against a
 * listener whose process may hold 256 files (`ulimit -n 256`, below the flood). It drops the slowest connections
 * rather than refusing new ones, so real signed deliveries on fresh connections still get their 2xx, and it stays
 * itself once the flood is over. How fast they are answered and how much memory the flood costs are timings of a
 * loaded machine: `npm run bench listener-pressure` measures them against the same listener without the flood.
 */

const root = mkdtempSync(join(tmpdir(), 'svc-listen-limits-'));
const env = isolatedEnv(root);
const listeners: FileLimitedListener[] = [];
afterEach(() => {
  for (const { child } of listeners.splice(0))
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

it('keeps taking signed deliveries on fresh connections while it drops slow unsigned senders to make room', async () => {
  const dbFile = join(root, 'flood', 'cache.db');
  const listener = listenWithFileLimit(dbFile, 256, env);
  listeners.push(listener);
  const url = await listener.url;
  const senders = flood(Number(new URL(url).port), 300);
  // the state the rule is about: its files are full (300 senders do not fit in 256) and it is dropping senders
  await waitUntil('the listener to drop a sender', () => senders.stats.dropped > 0 || undefined);

  // deliveries on connections of their own, one after another while the flood goes on: each is taken
  const deliveries: Delivery[] = Array.from({ length: 10 }, () => signed(PRIMARY_SECRET, testEvent()));
  const answers: { status: number; body: string }[] = [];
  for (const d of deliveries) answers.push(await postFresh(url, d));
  const droppedMeanwhile = senders.stats.dropped;
  await senders.stop();

  for (const answer of answers) expect(answer.status, answer.body).toBe(200);
  expect(droppedMeanwhile).toBeGreaterThan(0);
  // and it is still itself once the flood is over
  expect((await postFresh(url, signed(PRIMARY_SECRET, testEvent()))).status).toBe(200);
  listener.child.kill('SIGTERM');
  expect(await listener.exited).toBe(0);
  expect(listener.output.stdout + listener.output.stderr).not.toContain(PRIMARY_SECRET);
  expect(listener.output.stderr).toMatch(/slow connection\(s\) dropped to make room/);
  const db = new Database(dbFile, { readonly: true });
  try {
    const stored = new Set(db.prepare('SELECT event_id FROM webhook_events').pluck().all());
    for (const d of deliveries) expect(stored.has(d.eventId)).toBe(true);
  } finally {
    db.close();
  }
});
