/**
 * The demo's reference service on a worker thread of the monitor's process (DESIGN 3: in-process; demo-service.ts
 * starts it): the world's simulation and the service's requests run on the thread's own event loop and heap, never
 * delaying a key of the screen. It talks to the monitor by messages, and ends when the monitor asks (or with the
 * process).
 */
import { parentPort } from 'node:worker_threads';
import { type RunningService, startService } from '../server/service.js';
import { DataDirInUse } from '../server/store/data-dir-lock.js';
import { WebhookStore } from '../server/store/webhooks.js';

/** The world's store's SQLite page cache: the demo's process is the monitor's too (ServiceOptions.storePageCacheMib). */
const DEMO_STORE_PAGE_CACHE_MIB = 4;

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

/** What the world answers (its clock reaches the monitor in its answers' `Date`, as a live service's does). */
export type FromWorld =
  | { type: 'ready'; baseUrl: string; accountUrl: string; adminTokenFile?: string }
  /** `at`: the world's present when the listener was registered (ISO): insurance picks reach it from then on. */
  | { type: 'registered'; at: string }
  | { type: 'failed'; message: string; holderPid?: number; inUse: boolean };

const send = (message: FromWorld) => parentPort?.postMessage(message);

let service: RunningService | undefined;
let webhookSecret = '';

async function close(): Promise<void> {
  const running = service;
  service = undefined;
  await running?.close();
  // nothing left on the thread's loop: it ends
  parentPort?.close();
}

parentPort?.on('message', async (message: ToWorld) => {
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
        storePageCacheMib: DEMO_STORE_PAGE_CACHE_MIB,
      });
      const { baseUrl, accountUrl, adminTokenFile } = service;
      send({ type: 'ready', baseUrl, accountUrl, adminTokenFile });
    } else if (message.type === 'register' && service) {
      // the service's only webhook points at this run's listener, replacing those of earlier runs
      const store = new WebhookStore(service.db);
      for (const old of store.list()) store.remove(old.id);
      store.add(message.url, null, true, webhookSecret);
      // the world's present, as its answers' `Date` tells it: every event after it is queued for this webhook, none
      // before it (DESIGN 4 "the book's horizon": in the demo, the registration)
      const at = new Date(service.world.processedUntil() ?? service.clock.now()).toISOString();
      send({ type: 'registered', at });
    } else if (message.type === 'close') await close();
  } catch (error) {
    const inUse = error instanceof DataDirInUse;
    const text = error instanceof Error ? error.message : String(error);
    send({ type: 'failed', message: text, holderPid: inUse ? error.pid : undefined, inUse });
  }
});
