import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI, startCli } from '../cli/run-cli.js';
import { onFixtureClock } from '../helpers/fixture-clock.js';
import { httpClient, isolatedEnv, pool } from '../helpers/listener-harness.js';
import { PREVIOUS_SECRET, PRIMARY_SECRET, STRANGER_SECRET, signed, testEvent } from '../helpers/webhook-events.js';

/** `svc-monitor listen`'s configuration contract (DESIGN 3): where secrets come from, how it refuses, what it prints. */

const root = mkdtempSync(join(tmpdir(), 'svc-listen-cli-'));
const env = isolatedEnv(root);
const http = httpClient();
const printed: string[] = [];
afterAll(async () => {
  await http.close();
  rmSync(root, { recursive: true, force: true });
});

interface Outcome {
  /** exit code, or 'listening' when it started (then it was stopped with SIGTERM) */
  code: number | null | 'listening';
  stdout: string;
  stderr: string;
}

/** Runs `listen` until it exits or says it listens (then stops it); collects what it printed. */
function tryListen(args: string[], extraEnv: NodeJS.ProcessEnv = {}): Promise<Outcome> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, 'listen', '--port', '0', '--db', join(root, 'cache.db'), ...args], {
      env: { ...process.env, ...env, ...extraEnv },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let listening = false;
    child.stdout.on('data', (d) => {
      stdout += d;
      if (!listening && /listening on/.test(stdout)) {
        listening = true;
        child.kill('SIGTERM');
      }
    });
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    child.on('close', (code) => {
      printed.push(stdout, stderr);
      resolve({ code: listening ? 'listening' : code, stdout, stderr });
    });
  });
}

const oneLine = (text: string) => text.trim().split('\n');

describe('without a secret', () => {
  it('exits 2 with one line on stderr and prints nothing else; an empty or all-comma SVC_WEBHOOK_SECRET is none', async () => {
    const values = [undefined, '', ',', ',,'];
    const outcomes = await Promise.all(values.map((value) => tryListen([], { SVC_WEBHOOK_SECRET: value })));
    for (const [i, outcome] of outcomes.entries()) {
      const name = JSON.stringify(values[i]) ?? 'unset';
      expect(outcome.code, name).toBe(2);
      expect(outcome.stdout, name).toBe('');
      expect(oneLine(outcome.stderr), name).toHaveLength(1);
      expect(outcome.stderr, name).toMatch(/secret/);
    }
  });

  it('refuses an empty --secret (anyone can sign with the empty key) rather than listen with it', async () => {
    const outcome = await tryListen(['--secret', '']);
    expect(outcome.code, outcome.stdout).toBe(2);
    expect(oneLine(outcome.stderr)).toHaveLength(1);
  });
});

describe('where the secrets come from', () => {
  async function accepts(args: string[], extraEnv: NodeJS.ProcessEnv, secrets: string[], refused: string[]) {
    const db = join(root, `cache-${printed.length}-${args.length}.db`);
    // the fixtures' day, not the host's: else they are replays (fixture-clock.ts)
    onFixtureClock(db);
    const started = await startCli(
      ['listen', '--port', '0', '--db', db, '--no-notify', ...args],
      /listening on (http:\/\/\S+)/,
      { ...env, ...extraEnv },
    );
    try {
      const url = started.match[1] as string;
      for (const secret of secrets) expect((await http.post(url, signed(secret, testEvent()))).status).toBe(200);
      for (const secret of refused) expect((await http.post(url, signed(secret, testEvent()))).status).toBe(401);
    } finally {
      started.child.kill('SIGTERM');
      expect(await started.exited).toBe(0);
      printed.push(started.output().stdout, started.output().stderr);
    }
  }

  it('repeated --secret, then SVC_WEBHOOK_SECRET (comma-separated), then the config file', async () => {
    // a config dir of its own, holding a secret in the file
    const withFile = join(root, 'config-with-file');
    mkdirSync(join(withFile, 'svc-monitor'), { recursive: true });
    writeFileSync(join(withFile, 'svc-monitor', 'config.json'), JSON.stringify({ webhook_secrets: [STRANGER_SECRET] }));
    const fileEnv = { XDG_CONFIG_HOME: withFile };
    await Promise.all([
      // rotation by flags: both sign, a third does not
      accepts(
        ['--secret', PRIMARY_SECRET, '--secret', PREVIOUS_SECRET],
        {},
        [PRIMARY_SECRET, PREVIOUS_SECRET],
        [STRANGER_SECRET],
      ),
      // rotation by the environment, which wins over the file
      accepts(
        [],
        { ...fileEnv, SVC_WEBHOOK_SECRET: `${PRIMARY_SECRET},${PREVIOUS_SECRET}` },
        [PRIMARY_SECRET, PREVIOUS_SECRET],
        [STRANGER_SECRET],
      ),
      // the file alone
      accepts([], fileEnv, [STRANGER_SECRET], [PRIMARY_SECRET]),
      // a flag wins over the file
      accepts(['--secret', PREVIOUS_SECRET], fileEnv, [PREVIOUS_SECRET], [STRANGER_SECRET]),
    ]);
  });
});

describe('failures are one line and never show a secret', () => {
  it('a port in use, a bad port, a file that is not a cache', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    const notACache = join(root, 'not-a-cache.db');
    writeFileSync(notACache, 'this is not SQLite');
    try {
      const [inUse, badPort, badDb] = await Promise.all([
        tryListen(['--secret', PRIMARY_SECRET, '--port', String(port), '--verbose']),
        tryListen(['--secret', PRIMARY_SECRET, '--port', 'eighty']),
        tryListen(['--secret', PRIMARY_SECRET, '--db', notACache]),
      ]);
      expect(inUse.code).not.toBe('listening');
      expect(inUse.code).not.toBe(0);
      expect(inUse.stderr).toMatch(/in use|EADDRINUSE/);
      expect(badPort.code).toBe(2);
      expect(badDb.code).toBe(2);
      expect(oneLine(badDb.stderr)).toHaveLength(1);
      for (const outcome of [inUse, badPort, badDb]) expect(outcome.stderr).not.toContain(PRIMARY_SECRET);
    } finally {
      blocker.close();
    }
  });

  it('SIGINT or SIGTERM right after "listening on" stops it with exit 0 (the readiness line comes after the handlers)', async () => {
    // a supervisor may signal the moment it reads the readiness line; each run is a chance to catch the window
    const runs = Array.from({ length: 4 }, (_, i) => (i % 2 ? 'SIGTERM' : 'SIGINT') as NodeJS.Signals);
    const outcomes = await pool(runs, 4, async (signal, i) => {
      const started = await startCli(
        ['listen', '--port', '0', '--secret', PRIMARY_SECRET, '--db', join(root, `signal-${i}.db`)],
        /listening on (http:\/\/\S+)/,
        env,
      );
      started.child.kill(signal);
      const code = await started.exited;
      printed.push(started.output().stdout, started.output().stderr);
      expect(started.output().stdout).toMatch(/^listening on http:\/\/127\.0\.0\.1:\d+\/\n$/);
      return `${signal}: ${code === null ? `killed by ${started.child.signalCode}` : `exit ${code}`}`;
    });
    expect(outcomes).toEqual(runs.map((signal) => `${signal}: exit 0`));
  });

  it('no output of any run in this file holds a secret', () => {
    expect(printed.length).toBeGreaterThan(20);
    for (const text of printed) {
      for (const secret of [PRIMARY_SECRET, PREVIOUS_SECRET, STRANGER_SECRET]) expect(text).not.toContain(secret);
    }
  });
});
