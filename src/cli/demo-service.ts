import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { DataDirInUse } from '../server/store/data-dir-lock.js';
import { newWebhookSecret } from '../server/store/webhooks.js';
import type { FromWorld, ToWorld } from './demo-world.js';
import { dataDir } from './paths.js';
import { askWorker, startModuleWorker } from './worker-module.js';

/** The demo's world runs two simulated hours a real minute: a pick, a trade or a lock lands every few seconds. */
export const DEMO_SPEED = 120;

/** `SVC_DEMO_SPEED` (simulated seconds a real second, positive) runs the demo's world at another pace: tests use it. */
const demoSpeed = (): number => {
  const speed = Number(process.env.SVC_DEMO_SPEED);
  return Number.isFinite(speed) && speed > 0 ? speed : DEMO_SPEED;
};

/** Requests a minute the demo's own key may make: ten times DESIGN 4's default. */
const DEMO_RATE_LIMIT = 6_000;

export interface DemoService {
  /** `http://HOST:PORT/api/public/v1` of the demo's service. */
  baseUrl: string;
  /** Its account pages, and where their sign-in token is kept. */
  accountUrl: string;
  adminTokenFile?: string;
  apiKey: string;
  /** The secret the demo's webhook signs with: the listener verifies with it. */
  webhookSecret: string;
  /**
   * Points the service's (only) webhook at the listener, replacing those of earlier runs. Resolves to the world's
   * instant of the registration (ISO): the book's horizon (DESIGN 4), which the caller records in its cache.
   */
  registerListener(url: string): Promise<string>;
  close(): Promise<void>;
}

export const demoDir = (): string => join(dataDir(), 'demo');

/**
 * The reference service in-process for `monitor --demo` (DESIGN 3), on a worker thread (demo-world.ts): its own
 * store under `<data dir>/demo/server`, a key made for this run, private webhook targets allowed (the listener is on
 * loopback). The world resumes where the last demo left it; a fresh one first fills 30 days of history (several
 * seconds, once). Its simulation and its requests run on the thread's event loop and heap, not the screen's.
 */
export async function startDemoService(dir = demoDir()): Promise<DemoService> {
  const apiKey = `demo-${randomBytes(16).toString('hex')}`;
  const webhookSecret = newWebhookSecret();
  const world = new WorldThread();
  const ready = await world
    .ask(
      {
        type: 'start',
        dataDir: join(dir, 'server'),
        speed: demoSpeed(),
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
  // no clock of its own: the monitor reads the world's from the service's answers, as it reads a live service's
  return {
    baseUrl: ready.baseUrl,
    accountUrl: ready.accountUrl,
    adminTokenFile: ready.adminTokenFile,
    apiKey,
    webhookSecret,
    registerListener: async (url) => (await world.ask({ type: 'register', url }, 'registered')).at,
    close: () => world.close(),
  };
}

/** The thread and its conversation: one question at a time, each answered by a message of the expected type. */
class WorldThread {
  private readonly worker = startModuleWorker('demo-world');
  private readonly exited = new Promise<void>((done) => this.worker.once('exit', () => done()));
  private running = true;

  // the thread keeps the process alive until it is closed (session close; the CLI's 3 s limit after q backs it)
  constructor() {
    this.worker.once('exit', () => {
      this.running = false;
    });
  }

  async ask<T extends FromWorld['type']>(message: ToWorld, answer: T): Promise<Extract<FromWorld, { type: T }>> {
    const reply = await askWorker<FromWorld>(this.worker, "the demo's world", message, answer, (r) =>
      failure(r as Extract<FromWorld, { type: 'failed' }>),
    );
    return reply as Extract<FromWorld, { type: T }>;
  }

  async close(): Promise<void> {
    if (this.running) this.worker.postMessage({ type: 'close' } satisfies ToWorld);
    await this.exited;
  }
}

/** One demo at a time: its world is one data dir, and the refusal names the demo that runs, not a server. */
function failure(reply: Extract<FromWorld, { type: 'failed' }>): Error {
  if (!reply.inUse) return new Error(reply.message);
  return new DataDirInUse(
    `another demo is running (pid ${reply.holderPid ?? 'unknown'}); quit it first`,
    reply.holderPid,
  );
}
