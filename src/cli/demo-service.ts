import { type ChildProcess, fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DataDirInUse } from '../server/store/data-dir-lock.js';
import { newWebhookSecret } from '../server/store/webhooks.js';
import type { FromWorld, ToWorld } from './demo-world-process.js';
import { dataDir } from './paths.js';

/** The demo's world runs two simulated hours a real minute: a pick, a trade or a lock lands every few seconds. */
export const DEMO_SPEED = 120;

/** Requests a minute the demo's own key may make: ten times DESIGN 4's default. */
export const DEMO_RATE_LIMIT = 6_000;

export interface DemoService {
  /** `http://HOST:PORT/api/public/v1` of the demo's service. */
  baseUrl: string;
  /** Its account pages, and where their sign-in token is kept. */
  accountUrl: string;
  adminTokenFile?: string;
  /** The world's clock, as the service keeps it (DEMO_SPEED simulated seconds a real second). */
  now(): number;
  apiKey: string;
  /** The secret the demo's webhook signs with: the listener verifies with it. */
  webhookSecret: string;
  /** Points the service's (only) webhook at the listener, replacing those of earlier runs. */
  registerListener(url: string): Promise<void>;
  close(): Promise<void>;
}

export const demoDir = (): string => join(dataDir(), 'demo');

/**
 * The reference service for `monitor --demo` (DESIGN 3), in a child process (demo-world-process.ts): its own store
 * under `<data dir>/demo/server`, a key made for this run, private webhook targets allowed (the listener is on
 * loopback). The world resumes where the last demo left it; a fresh one first fills 30 days of history (several
 * seconds, once). Its simulation and its requests run on the child's event loop and heap, not the screen's.
 */
export async function startDemoService(dir = demoDir()): Promise<DemoService> {
  const apiKey = `demo-${randomBytes(16).toString('hex')}`;
  const webhookSecret = newWebhookSecret();
  const world = new WorldProcess();
  const ready = await world
    .ask(
      {
        type: 'start',
        dataDir: join(dir, 'server'),
        speed: DEMO_SPEED,
        apiKey,
        webhookSecret,
        // the demo's service is the monitor's own: its first start drains 30 days of history (about 300 pages), which
        // at DESIGN 4's 600 requests a minute would take half a minute and starve the streams of the screen meanwhile
        rateLimitPerMinute: DEMO_RATE_LIMIT,
      },
      'ready',
    )
    .catch(async (error: unknown) => {
      // a world that did not start (another demo holds its data dir) does not stay behind
      await world.close();
      throw error;
    });
  // the world clock, set by the instant the child read when it was ready
  const readAt = Date.now();
  return {
    baseUrl: ready.baseUrl,
    accountUrl: ready.accountUrl,
    adminTokenFile: ready.adminTokenFile,
    now: () => Math.floor(ready.now + (Date.now() - readAt) * ready.speed),
    apiKey,
    webhookSecret,
    registerListener: async (url) => {
      await world.ask({ type: 'register', url }, 'registered');
    },
    close: () => world.close(),
  };
}

/** The module the child runs: beside this one, built (.js) or, under the tests' TypeScript loader, its source. */
const childModule = (): { file: string; execArgv: string[] } => {
  const here = fileURLToPath(import.meta.url);
  const ts = here.endsWith('.ts');
  return { file: join(here, '..', `demo-world-process.${ts ? 'ts' : 'js'}`), execArgv: ts ? ['--import', 'tsx'] : [] };
};

/** The child and its conversation: one question at a time, each answered by a message of the expected type. */
class WorldProcess {
  private readonly child: ChildProcess;
  private readonly exited: Promise<void>;

  constructor() {
    const { file, execArgv } = childModule();
    // no terminal for the child: the screen is the monitor's (the service logs nothing in the demo anyway)
    this.child = fork(file, [], { execArgv, stdio: ['ignore', 'ignore', 'ignore', 'ipc'] });
    this.exited = new Promise((done) => this.child.once('exit', () => done()));
  }

  ask<T extends FromWorld['type']>(message: ToWorld, answer: T): Promise<Extract<FromWorld, { type: T }>> {
    return new Promise((resolve, reject) => {
      const onMessage = (reply: FromWorld) => {
        if (reply.type !== answer && reply.type !== 'failed') return;
        cleanup();
        if (reply.type === 'failed') reject(failure(reply));
        else resolve(reply as Extract<FromWorld, { type: T }>);
      };
      const onExit = (code: number | null) => {
        cleanup();
        reject(new Error(`the demo's world stopped (exit ${code}) before it answered`));
      };
      const cleanup = () => {
        this.child.off('message', onMessage);
        this.child.off('exit', onExit);
      };
      this.child.on('message', onMessage);
      this.child.once('exit', onExit);
      this.child.send(message);
    });
  }

  async close(): Promise<void> {
    if (this.child.exitCode === null && this.child.connected) this.child.send({ type: 'close' } satisfies ToWorld);
    await this.exited;
  }
}

/**
 * One demo at a time: its world is one data dir. The refusal names the demo that runs (the monitor whose world
 * holds the data dir, the holder's parent where the system says so), not a server.
 */
function failure(reply: Extract<FromWorld, { type: 'failed' }>): Error {
  if (!reply.inUse) return new Error(reply.message);
  const pid = monitorOf(reply.holderPid);
  return new DataDirInUse(`another demo is running (pid ${pid ?? 'unknown'}); quit it first`, pid);
}

/** The parent of a world process (Linux's /proc), or the pid itself where it cannot be read. */
function monitorOf(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    // /proc/PID/stat: "PID (name) state PPID ..."; the name may hold spaces, so read after its closing parenthesis
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    return Number.isInteger(ppid) && ppid > 1 ? ppid : pid;
  } catch {
    return pid;
  }
}
