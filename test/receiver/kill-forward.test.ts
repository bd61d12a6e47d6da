import type { ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { runCli, startCli } from '../cli/run-cli.js';
import { onFixtureClock } from '../helpers/fixture-clock.js';
import { httpClient, isolatedEnv, waitUntil } from '../helpers/listener-harness.js';
import { insuranceEvent, leg, PRIMARY_SECRET, signed } from '../helpers/webhook-events.js';

/**
 * Kill alerts to the config's `alerts.notify_command`, through the real `svc-monitor listen`: a script writes what
 * it receives on stdin. `--no-notify` is about the desktop only; `alerts.notify.kill: false` keeps kills from the
 * command too.
 */

const root = mkdtempSync(join(tmpdir(), 'svc-kill-forward-'));
const http = httpClient();
const children: ChildProcess[] = [];
afterAll(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await http.close();
  rmSync(root, { recursive: true, force: true });
});

/** A listener in a home of its own whose config sets `alerts`; its script appends what it receives to `received`. */
async function listen(name: string, alerts: (command: string) => object, extra: string[] = []) {
  const dir = join(root, name);
  const env = isolatedEnv(dir);
  const received = join(dir, 'received.jsonl');
  const command = join(dir, 'to-phone.sh');
  mkdirSync(join(dir, 'config', 'svc-monitor'), { recursive: true });
  writeFileSync(command, `#!/bin/sh\ncat >> '${received}'\n`);
  chmodSync(command, 0o755);
  writeFileSync(join(dir, 'config', 'svc-monitor', 'config.json'), JSON.stringify({ alerts: alerts(command) }), {
    mode: 0o600,
  });
  const db = join(dir, 'cache.db');
  // the fixtures' day, not the host's: else they are replays (fixture-clock.ts)
  onFixtureClock(db);
  const started = await startCli(
    ['listen', '--port', '0', '--secret', PRIMARY_SECRET, '--db', db, '--no-notify', ...extra],
    /listening on (http:\/\/\S+)/,
    env,
  );
  children.push(started.child);
  return { ...started, url: started.match[1] as string, received, env, db };
}

const kill = () =>
  insuranceEvent('insurance.pick.killed', {
    city: 'chicago',
    marketDate: '2026-11-21',
    legs: [leg('A', 64), leg('B', 66)],
    reason: 'METAR high so far 68°F is above 67°F',
  });

it('sends each stored kill alert to the notify command as JSON, also with --no-notify', async () => {
  const child = await listen('on', (command) => ({ notify_command: [command] }));
  const event = kill();
  expect((await http.post(child.url, signed(PRIMARY_SECRET, event))).json).toEqual({ status: 'stored' });
  const text = await waitUntil('the command to have run', () =>
    existsSync(child.received) && readFileSync(child.received, 'utf8').endsWith('\n')
      ? readFileSync(child.received, 'utf8')
      : undefined,
  );
  child.child.kill('SIGTERM');
  expect(await child.exited).toBe(0);
  const [sent, ...more] = text
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  expect(more).toEqual([]);
  const [stored] = JSON.parse((await runCli(['export', 'alerts', '--db', child.db], child.env)).stdout);
  expect(sent).toEqual({
    id: stored.id,
    kind: 'kill',
    severity: 'high',
    city_id: 'chicago',
    ref: event.trade.pick_id,
    created_at: stored.created_at,
    message: stored.message,
  });
  expect(sent.message).toMatch(/^KILL chicago 2026-11-21: SELL AT MARKET: legs A 64-65°F, B 66-67°F/);
  expect(text).not.toContain(PRIMARY_SECRET);
});

it('keeps kills from the command when alerts.notify.kill is false', async () => {
  const child = await listen('off', (command) => ({ notify_command: [command], notify: { kill: false } }));
  expect((await http.post(child.url, signed(PRIMARY_SECRET, kill()))).json).toEqual({ status: 'stored' });
  // the kill is stored (its alert exported) and, a moment later, still nothing ran
  const alerts = JSON.parse((await runCli(['export', 'alerts', '--db', child.db], child.env)).stdout);
  expect(alerts.map((a: { kind: string }) => a.kind)).toEqual(['kill']);
  await new Promise((resolve) => setTimeout(resolve, 500));
  child.child.kill('SIGTERM');
  expect(await child.exited).toBe(0);
  expect(existsSync(child.received)).toBe(false);
});
