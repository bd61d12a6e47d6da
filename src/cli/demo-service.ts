import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { type RunningService, type ServiceOptions, startService } from '../server/service.js';
import { DataDirInUse } from '../server/store/data-dir-lock.js';
import { newWebhookSecret, WebhookStore } from '../server/store/webhooks.js';
import { dataDir } from './paths.js';

/** The demo's world runs two simulated hours a real minute: a pick, a trade or a lock lands every few seconds. */
export const DEMO_SPEED = 120;

/** `SVC_DEMO_SPEED` (simulated seconds a real second, positive) runs the demo's world at another pace: tests use it. */
const demoSpeed = (): number => {
  const speed = Number(process.env.SVC_DEMO_SPEED);
  return Number.isFinite(speed) && speed > 0 ? speed : DEMO_SPEED;
};

/** Requests a minute the demo's own key may make: ten times DESIGN 4's default. */
export const DEMO_RATE_LIMIT = 6_000;

export interface DemoService {
  service: RunningService;
  apiKey: string;
  /** The secret the demo's webhook signs with: the listener verifies with it. */
  webhookSecret: string;
  /** Points the service's (only) webhook at the listener, replacing those of earlier runs. */
  registerListener(url: string): void;
  close(): Promise<void>;
}

export const demoDir = (): string => join(dataDir(), 'demo');

/**
 * The reference service in-process for `monitor --demo` (DESIGN 3): its own store under `<data dir>/demo/server`,
 * a key made for this run, private webhook targets allowed (the listener is on loopback). The world resumes where
 * the last demo left it; a fresh one first fills 30 days of history (several seconds, once).
 */
export async function startDemoService(dir = demoDir()): Promise<DemoService> {
  const apiKey = `demo-${randomBytes(16).toString('hex')}`;
  const service = await startDemoWorld({
    dataDir: join(dir, 'server'),
    port: 0,
    speed: demoSpeed(),
    apiKey,
    allowPrivateWebhooks: true,
    // the demo's service is the monitor's own: its first start drains 30 days of history (about 300 pages), which at
    // DESIGN 4's 600 requests a minute would take half a minute and starve the streams of the screen meanwhile
    rateLimitPerMinute: DEMO_RATE_LIMIT,
    logLevel: 'silent',
  });
  const webhookSecret = newWebhookSecret();
  const store = new WebhookStore(service.db);
  return {
    service,
    apiKey,
    webhookSecret,
    registerListener(url) {
      for (const old of store.list()) store.remove(old.id);
      store.add(url, null, true, webhookSecret);
    },
    close: () => service.close(),
  };
}

/** One demo at a time: its world is one data dir, and the refusal names the demo that runs, not a server. */
async function startDemoWorld(options: ServiceOptions): Promise<RunningService> {
  try {
    return await startService(options);
  } catch (error) {
    if (!(error instanceof DataDirInUse)) throw error;
    throw new DataDirInUse(`another demo is running (pid ${error.pid ?? 'unknown'}); quit it first`, error.pid);
  }
}
