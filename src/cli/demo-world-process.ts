/**
 * The demo's reference service in a process of its own (`monitor --demo` forks it, demo-service.ts): the world's
 * simulation and the service's requests run on its event loop and in its heap, never delaying a key of the screen.
 * It talks to the monitor over the IPC channel, and ends when the monitor asks or when the channel closes (the
 * monitor is gone, however it went).
 */
import { type RunningService, startService } from '../server/service.js';
import { DataDirInUse } from '../server/store/data-dir-lock.js';
import { WebhookStore } from '../server/store/webhooks.js';

/** What the monitor sends: how to start, where its listener is, and that it quits. */
export type ToWorld =
  | {
      type: 'start';
      dataDir: string;
      speed: number;
      apiKey: string;
      webhookSecret: string;
      rateLimitPerMinute: number;
    }
  | { type: 'register'; url: string }
  | { type: 'close' };

/** What the world answers. `now` is the world clock's instant when it was read, to set the monitor's clock by. */
export type FromWorld =
  | { type: 'ready'; baseUrl: string; accountUrl: string; adminTokenFile?: string; now: number; speed: number }
  | { type: 'registered' }
  | { type: 'failed'; message: string; holderPid?: number; inUse: boolean };

const send = (message: FromWorld) => process.send?.(message);

let service: RunningService | undefined;
let webhookSecret = '';

async function close(): Promise<void> {
  const running = service;
  service = undefined;
  await running?.close();
  process.exit(0);
}

process.on('message', async (message: ToWorld) => {
  try {
    if (message.type === 'start') {
      webhookSecret = message.webhookSecret;
      service = await startService({
        dataDir: message.dataDir,
        port: 0,
        speed: message.speed,
        apiKey: message.apiKey,
        allowPrivateWebhooks: true,
        rateLimitPerMinute: message.rateLimitPerMinute,
        logLevel: 'silent',
      });
      const { baseUrl, accountUrl, adminTokenFile, clock } = service;
      send({ type: 'ready', baseUrl, accountUrl, adminTokenFile, now: clock.now(), speed: clock.speed });
    } else if (message.type === 'register' && service) {
      // the service's only webhook points at this run's listener, replacing those of earlier runs
      const store = new WebhookStore(service.db);
      for (const old of store.list()) store.remove(old.id);
      store.add(message.url, null, true, webhookSecret);
      send({ type: 'registered' });
    } else if (message.type === 'close') await close();
  } catch (error) {
    const inUse = error instanceof DataDirInUse;
    const text = error instanceof Error ? error.message : String(error);
    send({ type: 'failed', message: text, holderPid: inUse ? error.pid : undefined, inUse });
  }
});
// the monitor is gone (quit, killed): so is its world
process.on('disconnect', () => {
  close().catch(() => process.exit(1));
});
