import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PATIENCE_MS } from '../helpers/patience.js';
import { startTestService, TEST_KEY, type TestService } from '../helpers/service.js';
import { insertExtraLocks } from '../helpers/sync-fixtures.js';
import { type GateProxy, startGateProxy } from '../sync/gate-proxy.js';
import { CLI, runCli } from './run-cli.js';

let svc: TestService;
let gate: GateProxy;
const root = mkdtempSync(join(tmpdir(), 'svc-sync-daemon-'));
const env = { XDG_DATA_HOME: join(root, 'data'), XDG_CONFIG_HOME: join(root, 'config') };

beforeAll(async () => {
  svc = await startTestService({ tickMs: 24 * 3_600_000 });
  gate = await startGateProxy(svc.baseUrl);
  // the service and short intervals from the config file, as an operator's daemon would have them
  mkdirSync(join(env.XDG_CONFIG_HOME, 'svc-monitor'), { recursive: true, mode: 0o700 });
  const intervals = { cities: 3600, current: 60, forecasts: 60, no24: 60, yescore: 60, 'svc-max-picks': 60 };
  writeFileSync(
    join(env.XDG_CONFIG_HOME, 'svc-monitor', 'config.json'),
    JSON.stringify({ base_url: gate.baseUrl, api_key: TEST_KEY, intervals: { ...intervals, 'fusion-locks': 1 } }),
    { mode: 0o600 },
  );
});
afterAll(async () => {
  await gate.close();
  await svc.close();
  rmSync(root, { recursive: true, force: true });
});

/** `svc-monitor sync` without --once, its output collected, its exit awaited. */
function startDaemon(db: string) {
  const child: ChildProcess = spawn(process.execPath, [CLI, 'sync', '--db', db], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output = { stdout: '', stderr: '' };
  child.stdout?.on('data', (d) => {
    output.stdout += d;
  });
  child.stderr?.on('data', (d) => {
    output.stderr += d;
  });
  let code: number | null | undefined;
  const exited = new Promise<number | null>((done) =>
    child.on('close', (c) => {
      code = c;
      done(c);
    }),
  );
  return { child, output, exited, running: () => code === undefined };
}

const isLocks = (path: string) => path.startsWith('/fusion-locks?') && !path.includes('resolved=');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('svc-monitor sync without --once', () => {
  it('polls each stream on its interval until SIGTERM, storing what appears later, then exits 0', async () => {
    const db = join(root, 'daemon.db');
    const daemon = startDaemon(db);
    try {
      // the first pass ends with the locks; the daemon must still be there after it, and poll again
      const before = gate.count(isLocks);
      await gate.waitFor(isLocks, before + 1);
      await sleep(500);
      expect(daemon.running(), `exited early; stderr: ${daemon.output.stderr}`).toBe(true);

      // a lock that reaches the service after the first pass
      const newest = svc.service.db.prepare('SELECT max(locked_at) FROM fusion_locks').pluck().get() as string;
      const later = new Date(Date.parse(newest) + 60_000).toISOString().replace('.000Z', 'Z');
      const [id] = insertExtraLocks(svc.service.db, {
        count: 1,
        prefix: 'fl-late',
        resolved: false,
        lockedAt: () => later,
      });
      const polls = gate.count(isLocks);
      // several intervals of 1 s: three more polls of the locks, the last of them after the lock appeared
      await gate.waitFor(isLocks, polls + 3);
      const exported = await runCli(['export', 'fusion-locks', '--db', db], env);
      expect(exported.code, exported.stderr).toBe(0);
      expect(JSON.parse(exported.stdout).map((lock: { id: string }) => lock.id)).toContain(id);
      // the hourly cities stream ran once, in the first pass only
      expect(gate.count((path) => path === '/cities')).toBe(1);
      expect(daemon.running()).toBe(true);

      daemon.child.kill('SIGTERM');
      expect(await daemon.exited).toBe(0);
      expect(daemon.output.stderr).toContain('sync: polling until SIGTERM or Ctrl-C (cities 3600s, current 60s');
      expect(daemon.output.stdout + daemon.output.stderr).not.toContain(TEST_KEY);
    } finally {
      daemon.child.kill('SIGKILL');
    }
  });

  it('on SIGTERM while a request waits for its answer, exits 0 at once with every committed page kept', async () => {
    const db = join(root, 'daemon-hung.db');
    const daemon = startDaemon(db);
    try {
      const before = gate.count(isLocks);
      await gate.waitFor(isLocks, before + 2);
      const stored = JSON.parse((await runCli(['export', 'fusion-locks', '--db', db], env)).stdout).length;
      expect(stored).toBeGreaterThan(0);
      // the next poll of the locks gets no answer until after the daemon exited: it must not wait for it
      const release = gate.hold(isLocks);
      const held = gate.count(isLocks);
      await gate.waitFor(isLocks, held + 1);
      daemon.child.kill('SIGTERM');
      const code = await Promise.race([daemon.exited, sleep(PATIENCE_MS).then(() => 'still running')]);
      release();
      expect(code, daemon.output.stderr).toBe(0);
      const after = await runCli(['export', 'fusion-locks', '--db', db], env);
      expect(JSON.parse(after.stdout)).toHaveLength(stored);
      expect(daemon.output.stderr).not.toMatch(/cancelled|fusion-locks:/);
    } finally {
      daemon.child.kill('SIGKILL');
    }
  });

  it('SIGINT during --once stops after the committed pages: exit 1, saying it was interrupted', async () => {
    const db = join(root, 'once-interrupted.db');
    const child = spawn(process.execPath, [CLI, 'sync', '--once', '--db', db], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    const exited = new Promise<number | null>((done) => child.on('close', done));
    const release = gate.hold((path) => path.startsWith('/forecasts?'));
    try {
      const before = gate.count((path) => path.startsWith('/forecasts?'));
      await gate.waitFor((path) => path.startsWith('/forecasts?'), before + 1);
      child.kill('SIGINT');
      expect(await exited).toBe(1);
      expect(stderr).toContain('interrupted: every page fetched before the signal is stored; run again to finish');
      // the streams before it were committed
      expect(JSON.parse((await runCli(['export', 'current', '--db', db], env)).stdout).length).toBeGreaterThan(0);
    } finally {
      release();
      child.kill('SIGKILL');
    }
  });
});
