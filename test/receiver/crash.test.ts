import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, afterEach, expect, it } from 'vitest';
import { startCli } from '../cli/run-cli.js';
import { onFixtureClock } from '../helpers/fixture-clock.js';
import { type Answer, httpClient, isolatedEnv, pool } from '../helpers/listener-harness.js';
import {
  type Delivery,
  edgeEvent,
  insuranceEvent,
  PRIMARY_SECRET,
  signed,
  testEvent,
} from '../helpers/webhook-events.js';

/**
 * `svc-monitor listen` as a child process over a real cache file: killed with SIGKILL under load it loses nothing
 * it acknowledged; stopped with SIGTERM under load it answers what it took in and exits 0.
 */

const root = mkdtempSync(join(tmpdir(), 'svc-listen-crash-'));
const env = isolatedEnv(root);
const children: ChildProcess[] = [];
const outputs: (() => { stdout: string; stderr: string })[] = [];
afterEach(() => {
  for (const child of children.splice(0))
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});
afterAll(() => {
  // whatever happened, no secret was ever printed
  for (const output of outputs) {
    const { stdout, stderr } = output();
    expect(stdout + stderr).not.toContain(PRIMARY_SECRET);
  }
  rmSync(root, { recursive: true, force: true });
});

async function listen(dbFile: string) {
  // the fixtures' day, not the host's: else they are replays (fixture-clock.ts)
  onFixtureClock(dbFile);
  const started = await startCli(
    ['listen', '--port', '0', '--secret', PRIMARY_SECRET, '--db', dbFile, '--no-notify'],
    /listening on (http:\/\/\S+)/,
    env,
  );
  children.push(started.child);
  outputs.push(started.output);
  return { ...started, url: started.match[1] as string };
}

function deliveries(count: number): Delivery[] {
  return Array.from({ length: count }, (_, i) => {
    switch (i % 4) {
      case 0:
        return signed(PRIMARY_SECRET, insuranceEvent('insurance.pick.created'));
      case 1:
        return signed(PRIMARY_SECRET, edgeEvent('edge.trade.entered', { tradeId: i }));
      case 2:
        return signed(PRIMARY_SECRET, insuranceEvent('insurance.pick.killed'));
      default:
        return signed(PRIMARY_SECRET, testEvent());
    }
  });
}

const storedIds = (dbFile: string) => {
  const db = new Database(dbFile, { readonly: true });
  try {
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    return new Set(db.prepare('SELECT event_id FROM webhook_events').pluck().all() as string[]);
  } finally {
    db.close();
  }
};

it('keeps every event it answered 200 when killed with SIGKILL mid-load, and knows them after a restart', async () => {
  const dbFile = join(root, 'kill9', 'cache.db');
  const all = deliveries(3_000);
  const first = await listen(dbFile);
  const http = httpClient(64);
  const acknowledged: Delivery[] = [];
  const failures = new Map<string, number>();
  let killed = false;
  await pool(all, 64, async (d) => {
    if (killed) return;
    let answer: Answer;
    try {
      answer = await http.post(first.url, d);
    } catch (error) {
      const key = error instanceof Error ? error.message : String(error);
      failures.set(key, (failures.get(key) ?? 0) + 1);
      return;
    }
    if (answer.status === 200) {
      acknowledged.push(d);
      if (acknowledged.length === 600 && !killed) {
        killed = true;
        first.child.kill('SIGKILL');
      }
    } else failures.set(`status ${answer.status}`, (failures.get(`status ${answer.status}`) ?? 0) + 1);
  });
  await http.close();
  expect(await first.exited).toBe(null);
  expect(first.child.signalCode).toBe('SIGKILL');
  expect([...failures.keys()].filter((k) => k.startsWith('status '))).toEqual([]);
  expect(acknowledged.length).toBeGreaterThanOrEqual(600);

  // the file as the crash left it: every acknowledged event is there
  const ids = storedIds(dbFile);
  const missing = acknowledged.filter((d) => !ids.has(d.eventId));
  expect(missing.map((d) => d.eventId)).toEqual([]);

  // restarted on the same file, it knows them: their retries are duplicates, the rest are stored now
  const second = await listen(dbFile);
  const http2 = httpClient(32);
  const acknowledgedIds = new Set(acknowledged.map((d) => d.eventId));
  const sent = all.slice(0, Math.min(all.length, acknowledged.length + 400));
  const retries = await pool(sent, 32, (d) => http2.post(second.url, d));
  await http2.close();
  for (const [i, d] of sent.entries()) {
    const answer = retries[i];
    expect(answer?.status, answer?.body).toBe(200);
    if (acknowledgedIds.has(d.eventId)) expect(answer?.json, d.eventId).toEqual({ status: 'duplicate' });
  }
  second.child.kill('SIGTERM');
  expect(await second.exited).toBe(0);
  const after = storedIds(dbFile);
  for (const d of sent) expect(after.has(d.eventId)).toBe(true);
});

it('on SIGTERM under load answers only 200 or closes, commits all it answered and exits 0', async () => {
  const dbFile = join(root, 'term', 'cache.db');
  const all = deliveries(1_500);
  const child = await listen(dbFile);
  const http = httpClient(48);
  const acknowledged: Delivery[] = [];
  const statuses = new Map<number, number>();
  let stopped = false;
  await pool(all, 48, async (d) => {
    try {
      const answer = await http.post(child.url, d);
      statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
      if (answer.status === 200) acknowledged.push(d);
      if (acknowledged.length === 300 && !stopped) {
        stopped = true;
        child.child.kill('SIGTERM');
      }
    } catch {
      // refused or closed once it stops accepting
    }
  });
  await http.close();
  expect(await child.exited).toBe(0);
  expect([...statuses.keys()]).toEqual([200]);
  const ids = storedIds(dbFile);
  expect(acknowledged.filter((d) => !ids.has(d.eventId)).map((d) => d.eventId)).toEqual([]);
});
