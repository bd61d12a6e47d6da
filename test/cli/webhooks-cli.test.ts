import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { runCli, startCli } from './run-cli.js';

const root = mkdtempSync(join(tmpdir(), 'svc-webhooks-cli-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function dataDirCopy(name: string): string {
  const dir = join(root, name);
  cpSync(inject('templateDir'), dir, { recursive: true });
  return dir;
}

const webhooks = (dataDir: string, ...args: string[]) => runCli(['server', 'webhooks', ...args, '--data-dir', dataDir]);

describe('svc-monitor server webhooks', () => {
  it('refuses private targets, other schemes and unknown event types with exit 2 and a clear line', async () => {
    const dir = dataDirCopy('refusals');
    const loopback = await webhooks(dir, 'add', 'http://127.0.0.1:9999/hook');
    expect(loopback.code).toBe(2);
    expect(loopback.stderr).toMatch(/127\.0\.0\.1 \(loopback\).*refused/);
    const octal = await webhooks(dir, 'add', 'http://0x7f000001/');
    expect(octal.code).toBe(2);
    const ftp = await webhooks(dir, 'add', 'ftp://8.8.8.8/');
    expect(ftp.code).toBe(2);
    expect(ftp.stderr).toContain('only http and https');
    const events = await webhooks(dir, 'add', 'https://8.8.8.8/', '--events', 'edge.trade.entered,bogus');
    expect(events.code).toBe(2);
    expect(events.stderr).toContain('unknown event type bogus');
    expect(JSON.parse((await webhooks(dir, 'list', '--json')).stdout)).toEqual([]);
  });

  it('adds, lists without secrets, tests, enables and removes', async () => {
    const dir = dataDirCopy('lifecycle');
    const added = await webhooks(
      dir,
      'add',
      'http://127.0.0.1:9999/hook',
      '--allow-private',
      '--events',
      'webhook.test',
    );
    expect(added.code).toBe(0);
    const [id, secret] = added.stdout.trim().split('\n');
    expect(id).toMatch(/^wh_[0-9a-f]{12}$/);
    expect(secret).toMatch(/^whsec_/);

    const listed = await webhooks(dir, 'list', '--json');
    const [entry] = JSON.parse(listed.stdout);
    expect(entry).toMatchObject({
      id,
      url: 'http://127.0.0.1:9999/hook',
      events: ['webhook.test'],
      status: 'active',
      consecutive_failures: 0,
    });
    expect(entry).not.toHaveProperty('secret');
    expect(listed.stdout + (await webhooks(dir, 'list')).stdout).not.toContain(secret as string);

    const queued = await webhooks(dir, 'test', id as string);
    expect(queued.stdout).toMatch(/^queued webhook\.test [0-9a-f-]{36} for wh_/);
    expect((await webhooks(dir, 'deliveries', id as string)).code).toBe(0);
    expect((await webhooks(dir, 'enable', id as string)).stdout.trim()).toBe(`enabled ${id}`);
    expect((await webhooks(dir, 'remove', id as string)).stdout.trim()).toBe(`removed ${id}`);
    for (const command of ['remove', 'enable', 'test', 'deliveries']) {
      expect((await webhooks(dir, command, id as string)).code, command).toBe(2);
    }
  });

  it('accepts a private target without --allow-private when the data dir’s server runs with --allow-private-webhooks', async () => {
    const dir = dataDirCopy('server-allows');
    const server = await startCli(
      ['server', '--port', '0', '--data-dir', dir, '--allow-private-webhooks'],
      /listening on/,
    );
    const added = await webhooks(dir, 'add', 'http://127.0.0.1:9999/hook');
    expect(added.code, added.stderr).toBe(0);
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
  });
});
