import type { ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, afterEach, expect, it } from 'vitest';
import { MIGRATIONS } from '../../src/cache/db/migrations.js';
import { CACHE_APPLICATION_ID } from '../../src/sqlite/application-ids.js';
import { startCli } from '../cli/run-cli.js';
import { onFixtureClock } from '../helpers/fixture-clock.js';
import { httpClient, isolatedEnv, startTempListener, waitUntil } from '../helpers/listener-harness.js';
import { insuranceEvent, leg, PRIMARY_SECRET, signed } from '../helpers/webhook-events.js';

/**
 * A kill is committed and acknowledged before its desktop notification runs. The listener killed in that window
 * (SIGKILL while notify-send runs) must show the kill when it starts again, once; the start after that shows it no
 * more. Kills from before the upgrade, and kills taken in under `--no-notify`, never pop up later.
 */

const root = mkdtempSync(join(tmpdir(), 'svc-kill-notify-'));
const env = isolatedEnv(root);
const http = httpClient();
const children: ChildProcess[] = [];
const outputs: (() => { stdout: string; stderr: string })[] = [];
const blocks: string[] = [];
afterEach(() => {
  for (const child of children.splice(0))
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  // lets an orphaned fake notify-send finish
  for (const block of blocks.splice(0)) rmSync(block, { force: true });
});
afterAll(async () => {
  await http.close();
  for (const output of outputs) {
    const { stdout, stderr } = output();
    expect(stdout + stderr).not.toContain(PRIMARY_SECRET);
  }
  rmSync(root, { recursive: true, force: true });
});

/**
 * A fake `notify-send`: records its arguments (one a line, then `--end--`) in `log`, then, while the file `block`
 * exists, does not return (at most 30 s): the listener's notification stays under way for as long as the test likes.
 */
function blockingNotifySend(dir: string) {
  const bin = join(dir, 'fake-bin');
  mkdirSync(bin, { recursive: true });
  const log = join(dir, 'notify-send.log');
  const block = join(dir, 'block');
  const script = join(bin, 'notify-send');
  writeFileSync(
    script,
    [
      '#!/bin/sh',
      `for a in "$@"; do printf '%s\\n' "$a" >> '${log}'; done`,
      `printf '%s\\n' '--end--' >> '${log}'`,
      'i=0',
      `while [ -e '${block}' ] && [ "$i" -lt 300 ]; do sleep 0.1; i=$((i + 1)); done`,
      '',
    ].join('\n'),
  );
  chmodSync(script, 0o755);
  return {
    path: `${bin}:${process.env.PATH}`,
    block() {
      writeFileSync(block, '');
      blocks.push(block);
    },
    unblock: () => rmSync(block, { force: true }),
    /** Each run's title (its first argument). */
    titles(): string[] {
      if (!existsSync(log)) return [];
      const runs = readFileSync(log, 'utf8').split('--end--\n').slice(0, -1);
      return runs.map((run) => run.split('\n')[0] as string);
    },
  };
}

async function listen(dbFile: string, path: string, extra: string[] = []) {
  // the fixtures' day, not the host's: else they are replays (fixture-clock.ts)
  onFixtureClock(dbFile);
  const started = await startCli(
    ['listen', '--port', '0', '--secret', PRIMARY_SECRET, '--db', dbFile, ...extra],
    /listening on (http:\/\/\S+)/,
    { ...env, PATH: path },
  );
  children.push(started.child);
  outputs.push(started.output);
  return { ...started, url: started.match[1] as string };
}

async function stop(child: { child: ChildProcess; exited: Promise<number | null> }) {
  child.child.kill('SIGTERM');
  expect(await child.exited).toBe(0);
}

const kill = (city: string) =>
  insuranceEvent('insurance.pick.killed', { city, legs: [leg('A', 64), leg('B', 66)], reason: 'every leg loses' });

/** The kill alerts as another process sees them: pick and when its notification was recorded. */
function killAlerts(dbFile: string): { ref: string; notified_at: string | null }[] {
  const db = new Database(dbFile, { readonly: true });
  try {
    return db.prepare("SELECT ref, notified_at FROM alerts WHERE kind = 'kill' ORDER BY id").all() as {
      ref: string;
      notified_at: string | null;
    }[];
  } finally {
    db.close();
  }
}

it('shows a kill whose listener was SIGKILLed before its notification returned, once, at the next start', async () => {
  const dbFile = join(root, 'crash', 'cache.db');
  const fake = blockingNotifySend(join(root, 'crash'));
  fake.block();
  const first = await listen(dbFile, fake.path);
  const chicago = kill('chicago');
  expect((await http.post(first.url, signed(PRIMARY_SECRET, chicago))).json).toEqual({ status: 'stored' });
  // notify-send is running and has not returned: the window between the acknowledgement and the notification
  await waitUntil('notify-send to run', () => (fake.titles().length === 1 ? true : undefined));
  expect(killAlerts(dbFile)).toEqual([{ ref: chicago.trade.pick_id, notified_at: null }]);
  first.child.kill('SIGKILL');
  await first.exited;
  fake.unblock();

  // the next start shows it, once, and records that it did
  const second = await listen(dbFile, fake.path);
  const [marked] = await waitUntil(
    'the kill to be shown and marked',
    () => {
      const alerts = killAlerts(dbFile);
      return alerts[0]?.notified_at ? alerts : undefined;
    },
    10_000,
  );
  expect(fake.titles()).toEqual(['Kill · chicago', 'Kill · chicago']);
  await stop(second);

  // the start after that shows it no more; a new kill is shown as usual
  const third = await listen(dbFile, fake.path);
  const denver = kill('denver');
  expect((await http.post(third.url, signed(PRIMARY_SECRET, denver))).json).toEqual({ status: 'stored' });
  await waitUntil('the new kill to be marked', () => (killAlerts(dbFile)[1]?.notified_at ? true : undefined));
  await new Promise((r) => setTimeout(r, 300));
  expect(fake.titles()).toEqual(['Kill · chicago', 'Kill · chicago', 'Kill · denver']);
  expect(killAlerts(dbFile)[0]).toEqual(marked);
  await stop(third);
});

it('never shows later the kills from before the upgrade, nor those taken in under --no-notify', async () => {
  const dbFile = join(root, 'upgrade', 'cache.db');
  mkdirSync(join(root, 'upgrade'), { recursive: true });
  // a cache as version 3 left it, with a kill that was notified back then (there was no record of it)
  const v3 = new Database(dbFile);
  v3.pragma('journal_mode = WAL');
  for (const migration of MIGRATIONS.slice(0, 3)) v3.exec(migration);
  v3.pragma(`application_id = ${CACHE_APPLICATION_ID}`);
  v3.pragma('user_version = 3');
  const old = kill('boston');
  v3.prepare(
    `INSERT INTO insurance_picks (pick_id, city_id, market_date, status, killed_ms, kill_json)
     VALUES (?, 'boston', '2026-11-21', 'killed', 1763737200000, ?)`,
  ).run(old.trade.pick_id, JSON.stringify(old));
  v3.prepare(
    `INSERT INTO alerts (severity, kind, message, ref, city_id, created_at, created_ms)
     VALUES ('high', 'kill', 'KILL boston 2026-11-21: SELL AT MARKET', ?, 'boston', '2026-11-21T15:00:00.000Z',
       1763737200000)`,
  ).run(old.trade.pick_id);
  v3.close();

  const fake = blockingNotifySend(join(root, 'upgrade'));
  const quiet = await listen(dbFile, fake.path, ['--no-notify']);
  const seattle = kill('seattle');
  expect((await http.post(quiet.url, signed(PRIMARY_SECRET, seattle))).json).toEqual({ status: 'stored' });
  await stop(quiet);

  const loud = await listen(dbFile, fake.path);
  const miami = kill('miami');
  expect((await http.post(loud.url, signed(PRIMARY_SECRET, miami))).json).toEqual({ status: 'stored' });
  await waitUntil('the new kill to be marked', () => (killAlerts(dbFile)[2]?.notified_at ? true : undefined));
  await new Promise((r) => setTimeout(r, 300));
  expect(fake.titles()).toEqual(['Kill · miami']);
  const alerts = killAlerts(dbFile);
  expect(alerts.map((a) => a.ref)).toEqual([old.trade.pick_id, seattle.trade.pick_id, miami.trade.pick_id]);
  // the upgrade counts the old kill as shown when it arrived
  expect(alerts[0]?.notified_at).toBe('2026-11-21T15:00:00.000Z');
  await stop(loud);
});

it('records a notification that failed (no daemon) as run: logged, the alert kept, not retried at every start', async () => {
  const l = await startTempListener({
    notify: async () => {
      throw new Error('no notification daemon');
    },
  });
  try {
    const austin = kill('austin');
    expect((await http.post(l.url, signed(PRIMARY_SECRET, austin))).json).toEqual({ status: 'stored' });
    await waitUntil('the failed notification to be recorded', () =>
      killAlerts(l.dbFile)[0]?.notified_at ? true : undefined,
    );
    expect(l.listener.counts).toMatchObject({ notified: 0, notifyFailures: 1 });
    expect(l.logs).toContain('desktop notification failed: no notification daemon');
    expect(killAlerts(l.dbFile).map((a) => a.ref)).toEqual([austin.trade.pick_id]);
  } finally {
    await l.close();
  }
});
