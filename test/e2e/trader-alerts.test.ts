import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, inject, it } from 'vitest';
import { fakeNotifySend, waitUntil } from '../helpers/listener-harness.js';
import { startTui, type TuiProcess } from './terminal.js';

const root = mkdtempSync(join(tmpdir(), 'svc-e2e-alerts-'));
const running: TuiProcess[] = [];
afterAll(() => {
  for (const tui of running) tui.kill();
  rmSync(root, { recursive: true, force: true });
});

it('the demo sends its edge alerts to notify_command as JSON and lists them in Alerts', async () => {
  const env = { XDG_DATA_HOME: join(root, 'data'), XDG_CONFIG_HOME: join(root, 'config') };
  // the demo's world from the test template, so the first start does not fill 30 days
  cpSync(inject('templateDir'), join(env.XDG_DATA_HOME, 'svc-monitor', 'demo', 'server'), { recursive: true });
  const received = join(root, 'received.jsonl');
  const command = join(root, 'to-phone.sh');
  writeFileSync(command, `#!/bin/sh\ncat >> '${received}'\n`);
  chmodSync(command, 0o755);
  mkdirSync(join(env.XDG_CONFIG_HOME, 'svc-monitor'), { recursive: true });
  writeFileSync(
    join(env.XDG_CONFIG_HOME, 'svc-monitor', 'config.json'),
    // an edge of a cent or more: any market whose prices are not the model's own has one, however the world is tuned
    JSON.stringify({ alerts: { notify_command: [command], edge_min: 0.01 } }),
    { mode: 0o600 },
  );
  const notify = fakeNotifySend(root);
  const tui = startTui([], { ...env, PATH: `${notify.bin}:${process.env.PATH}`, SVC_API_KEY: '' });
  running.push(tui);
  await tui.waitFor('DEMO');

  // the first sync's market data raises edges; each reaches the command
  const edge = await waitUntil(
    'an edge alert on the command',
    () =>
      existsSync(received)
        ? readFileSync(received, 'utf8')
            .split('\n')
            .filter((line) => line.endsWith('}'))
            .map((line) => JSON.parse(line))
            .find((alert) => alert.kind === 'edge')
        : undefined,
    60_000,
  );
  expect(Object.keys(edge).sort()).toEqual(['city_id', 'created_at', 'id', 'kind', 'message', 'ref', 'severity']);
  // edge_min 0.01: every edge alerted is 1.0 point or more
  const points = Number(edge.message.match(/edge \+(\d+\.\d) points/)?.[1]);
  expect(points).toBeGreaterThanOrEqual(1);
  expect(edge.message.startsWith(`${edge.city_id} `)).toBe(true);

  tui.press('4');
  await tui.waitFor('!  EDGE');
  // the desktop got notifications too, the demo's trader alerts among them
  await waitUntil('a trader alert notification', () =>
    notify
      .calls()
      .find((c) =>
        /^(Edge [+-]\d+\.\d pts|Dying bucket|Breakthrough) · |^svc-monitor: \d+ more alerts$/.test(c[0] ?? ''),
      ),
  );
  tui.press('q');
  expect((await tui.exited).exitCode).toBe(0);
});
