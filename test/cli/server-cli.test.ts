import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { runCli, startCli } from './run-cli.js';

const root = mkdtempSync(join(tmpdir(), 'svc-cli-'));
const env = { XDG_DATA_HOME: join(root, 'xdg-data'), XDG_CONFIG_HOME: join(root, 'xdg-config') };
afterAll(() => rmSync(root, { recursive: true, force: true }));

function templateCopy(name: string): string {
  const dir = join(root, name);
  cpSync(inject('templateDir'), dir, { recursive: true });
  return dir;
}

describe('svc-monitor command line', () => {
  it('answers --help and --version on every command with exit 0', async () => {
    for (const args of [
      [],
      ['monitor'],
      ['sync'],
      ['listen'],
      ['export'],
      ['server'],
      ['server', 'keys'],
      ['server', 'keys', 'create'],
      ['server', 'webhooks', 'add'],
    ]) {
      const help = await runCli([...args, '--help'], env);
      expect(help.code, `${args.join(' ')} --help`).toBe(0);
      expect(help.stdout).toContain('Usage: svc-monitor');
      const version = await runCli([...args, '--version'], env);
      expect(version.code, `${args.join(' ')} --version`).toBe(0);
      expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
    }
    const version = await runCli(['--version'], env);
    expect(version.code).toBe(0);
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it('exits 2 with a one-line reason when listen has no secret or the monitor has no terminal', async () => {
    const listen = await runCli(['listen', '--port', '0'], env);
    expect(listen.code).toBe(2);
    expect(listen.stderr).toMatch(/^svc-monitor: no webhook secret configured: pass --secret/);
    for (const args of [['monitor', '--offline'], ['monitor', '--demo'], []]) {
      const result = await runCli(args, env);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr.trim()).toBe(
        'svc-monitor: the monitor needs a terminal; for headless use run sync, listen or export',
      );
    }
  });

  it('exits 2 on usage errors with one line and no stack trace', async () => {
    for (const args of [
      ['server', '--port', 'abc'],
      ['server', '--speed', '0'],
      ['server', '--start', 'yesterday'],
      ['server', '--nope'],
    ]) {
      const result = await runCli(args, env);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr).not.toMatch(/\n\s+at /);
    }
  });

  it('serves, takes keys made while it runs, refuses revoked ones at once, and stops cleanly on SIGTERM', async () => {
    const dataDir = templateCopy('running');
    const secret = 'cli-test-key-never-printed';
    const server = await startCli(
      ['server', '--port', '0', '--data-dir', dataDir, '--seed', '1', '--api-key', secret],
      /^listening on (http:\/\/127\.0\.0\.1:\d+\/api\/public\/v1)$/m,
      env,
    );
    const base = server.match[1];
    expect((await fetch(`${base}/cities`, { headers: { 'x-api-key': secret } })).status).toBe(200);

    const created = await runCli(['server', 'keys', 'create', '--json', '--data-dir', dataDir], env);
    expect(created.code, created.stderr).toBe(0);
    const { id, key } = JSON.parse(created.stdout);
    expect((await fetch(`${base}/cities`, { headers: { 'x-api-key': key } })).status).toBe(200);

    const listed = await runCli(['server', 'keys', 'list', '--json', '--data-dir', dataDir], env);
    expect(JSON.parse(listed.stdout).map((k: { id: string }) => k.id)).toContain(id);
    expect(listed.stdout).not.toContain(key);

    expect((await runCli(['server', 'keys', 'revoke', id, '--data-dir', dataDir], env)).code).toBe(0);
    expect((await fetch(`${base}/cities`, { headers: { 'x-api-key': key } })).status).toBe(401);
    expect((await runCli(['server', 'keys', 'revoke', 'key_unknown', '--data-dir', dataDir], env)).code).toBe(2);

    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    const { stdout, stderr } = server.output();
    expect(stdout + stderr).not.toContain(secret);
  });

  it('refuses a corrupt data dir, a world clock set backwards and a busy port with exit 2 and one clear line', async () => {
    const corrupt = join(root, 'corrupt');
    mkdirSync(corrupt, { recursive: true });
    writeFileSync(join(corrupt, 'server.db'), 'this is not a database');
    const bad = await runCli(['server', '--port', '0', '--data-dir', corrupt], env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^svc-monitor: the data dir .* does not hold a usable store/);
    expect(bad.stderr.trim().split('\n')).toHaveLength(1);

    const backwards = await runCli(
      ['server', '--port', '0', '--data-dir', templateCopy('backwards'), '--start', '2026-01-01T00:00:00Z'],
      env,
    );
    expect(backwards.code).toBe(2);
    expect(backwards.stderr).toContain('worlds do not run backwards');

    const dataDir = templateCopy('busy');
    const first = await startCli(
      ['server', '--port', '0', '--data-dir', dataDir],
      /listening on http:\/\/127\.0\.0\.1:(\d+)\//,
      env,
    );
    const busy = await runCli(
      ['server', '--port', first.match[1] as string, '--data-dir', templateCopy('busy-2')],
      env,
    );
    expect(busy.code).toBe(2);
    expect(busy.stderr).toContain('EADDRINUSE');
    first.child.kill('SIGINT');
    expect(await first.exited).toBe(0);
  });
});
