import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, expect, inject, it } from 'vitest';
import { PATIENCE_MS } from '../helpers/patience.js';
import { startReceiver } from '../helpers/receiver.js';
import { runCli, startCli } from './run-cli.js';

const root = mkdtempSync(join(tmpdir(), 'svc-restart-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

it('delivers every queued event after the server is killed with SIGKILL mid-delivery and restarted', async () => {
  const dataDir = join(root, 'server');
  cpSync(inject('templateDir'), dataDir, { recursive: true });
  // slow answers keep deliveries in flight when the kill lands
  const receiver = await startReceiver((_request, _index, response) => {
    setTimeout(() => response.writeHead(200).end(), 150);
  });
  try {
    const added = await runCli([
      'server',
      'webhooks',
      'add',
      receiver.url,
      '--events',
      'webhook.test',
      '--allow-private',
      '--json',
      '--data-dir',
      dataDir,
    ]);
    expect(added.code, added.stderr).toBe(0);
    const { id } = JSON.parse(added.stdout);
    const queued: string[] = [];
    for (let i = 0; i < 24; i++) {
      const test = await runCli(['server', 'webhooks', 'test', id, '--data-dir', dataDir]);
      queued.push(test.stdout.match(/webhook\.test (\S+) for/)?.[1] ?? '');
    }

    const args = ['server', '--port', '0', '--data-dir', dataDir, '--seed', '1'];
    const first = await startCli(args, /listening on/);
    await receiver.waitFor(6);
    first.child.kill('SIGKILL');
    await first.exited;
    const beforeRestart = receiver.received.length;
    expect(beforeRestart).toBeLessThan(24);

    const second = await startCli(args, /listening on/);
    const db = new Database(join(dataDir, 'server.db'), { readonly: true });
    const deadline = Date.now() + PATIENCE_MS;
    const delivered = () =>
      db.prepare("SELECT count(*) FROM webhook_deliveries WHERE status = 'delivered'").pluck().get() as number;
    while (delivered() < 24 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    db.close();
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);

    const arrived = new Set(receiver.received.map((r) => String(r.headers['x-svc-event-id'])));
    expect([...arrived].sort()).toEqual([...queued].sort());
    expect(receiver.received.length).toBeGreaterThanOrEqual(24);
  } finally {
    await receiver.close();
  }
});
