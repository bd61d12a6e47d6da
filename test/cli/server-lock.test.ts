import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, inject, it } from 'vitest';
import { runCli } from './run-cli.js';
import { type ServerChild, spawnServer } from './server-children.js';

const root = mkdtempSync(join(tmpdir(), 'svc-lock-'));
const running: ServerChild[] = [];
afterAll(() => {
  for (const server of running) if (server.child.exitCode === null) server.child.kill('SIGKILL');
  rmSync(root, { recursive: true, force: true });
});

function templateCopy(name: string): string {
  const dir = join(root, name);
  cpSync(inject('templateDir'), dir, { recursive: true });
  return dir;
}

const server = (dataDir: string) => {
  const started = spawnServer(['--port', '0', '--data-dir', dataDir, '--seed', '1']);
  running.push(started);
  return started;
};

const refusal = (dataDir: string, pid: number | undefined) =>
  `svc-monitor: the data dir ${dataDir} is in use by another server (pid ${pid}); stop it first, or give this one another --data-dir\n`;

it('lets one of two servers started at the same instant on one data dir run; the other exits 2 naming its pid', async () => {
  const dataDir = templateCopy('same-instant');
  const pair = [server(dataDir), server(dataDir)];
  const outcomes = await Promise.all(
    pair.map((s) => Promise.race([s.listening.then(() => 'listening'), s.exited.then((code) => `exit ${code}`)])),
  );
  expect([...outcomes].sort()).toEqual(['exit 2', 'listening']);
  const refused = pair[outcomes.indexOf('exit 2')] as ServerChild;
  const holder = pair[outcomes.indexOf('listening')] as ServerChild;
  expect(refused.output.stderr).toBe(refusal(dataDir, holder.child.pid));
  expect(refused.output.stdout).toBe('');

  holder.child.kill('SIGTERM');
  expect(await holder.exited).toBe(0);
});

it('refuses a second server while the first runs, still runs admin commands, and starts again after a SIGKILL', async () => {
  const dataDir = templateCopy('staggered');
  const first = server(dataDir);
  await first.listening;

  const second = server(dataDir);
  expect(await second.exited).toBe(2);
  expect(second.output.stderr).toBe(refusal(dataDir, first.child.pid));

  // administration goes on beside the running server
  const created = await runCli(['server', 'keys', 'create', '--json', '--data-dir', dataDir]);
  expect(created.code, created.stderr).toBe(0);
  const { key } = JSON.parse(created.stdout);
  const base = await first.listening;
  expect((await fetch(`${base}/cities`, { headers: { 'x-api-key': key } })).status).toBe(200);
  const listed = await runCli(['server', 'webhooks', 'list', '--json', '--data-dir', dataDir]);
  expect(listed.code, listed.stderr).toBe(0);

  // a holder killed outright leaves no lock behind: the next start runs at once
  first.child.kill('SIGKILL');
  expect(await first.exited).toBe('SIGKILL');
  const third = server(dataDir);
  await third.listening;
  const fourth = server(dataDir);
  expect(await fourth.exited).toBe(2);
  expect(fourth.output.stderr).toBe(refusal(dataDir, third.child.pid));
  third.child.kill('SIGTERM');
  expect(await third.exited).toBe(0);
});
