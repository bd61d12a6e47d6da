import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { openStore } from '../src/server/store/open-store.js';
import { WebhookStore } from '../src/server/store/webhooks.js';
import { ratio, spawnReady, writeResult } from './lib.js';
import { BENCH_KEY, prepareWorld } from './prepare-world.js';

const PER_WEBHOOK = 8;

/** Starts the receiver fixture; resolves its URL and a promise of the first-to-last duration (ms). */
function startReceiver(expected: number): Promise<{ url: string; finished: Promise<number>; child: ChildProcess }> {
  const path = fileURLToPath(new URL('./fixtures/receiver-process.mjs', import.meta.url));
  const child = spawn(process.execPath, [path, String(expected)], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve) => {
    let out = '';
    let finish: (ms: number) => void = () => undefined;
    const finished = new Promise<number>((done) => {
      finish = done;
    });
    child.stdout?.on('data', (d) => {
      out += d;
      const url = out.match(/^ready (\S+)$/m)?.[1];
      const done = out.match(/^done (\S+)$/m)?.[1];
      if (url && !done) resolve({ url, finished, child });
      if (done) finish(Number(done));
    });
  });
}

/**
 * Deliveries a second from the service's outbox (signing, pinned connection, attempt committed per delivery) to a
 * receiver answering 200 at once, as a ratio to the same number of plain undici POSTs with the same concurrency
 * (the dispatcher's per-webhook limit), in the same run. Receiver, sender and service run in separate processes.
 */
export async function benchWebhookDelivery(count = 5000): Promise<object> {
  const rounds: { service_ms: number; undici_ms: number }[] = [];
  let bodyBytes = 0;
  for (let round = 0; round < 2; round++) {
    // the service: its outbox filled with `count` due deliveries before it starts
    const dir = prepareWorld();
    const receiver = await startReceiver(count);
    const db = openStore(dir);
    const store = new WebhookStore(db);
    const { id } = store.add(receiver.url, ['webhook.test'], true);
    db.transaction(() => {
      for (let i = 0; i < count; i++) {
        const eventId = randomUUID();
        const payload = {
          event_id: eventId,
          event_type: 'webhook.test',
          event_version: 1,
          created_at: '2026-11-21T12:00:00Z',
          attempt: 1,
          message: 'bench',
        };
        bodyBytes = JSON.stringify(payload).length;
        store.enqueue(id, eventId, 'webhook.test', payload);
      }
    })();
    db.close();
    const service = await spawnReady('service-process.mjs', [dir, BENCH_KEY]);
    const serviceMs = await receiver.finished;
    await service.stop();
    receiver.child.kill('SIGTERM');
    const check = new Database(join(dir, 'server.db'), { readonly: true });
    const delivered = check.prepare("SELECT count(*) FROM webhook_deliveries WHERE status = 'delivered'").pluck().get();
    check.close();
    if (delivered !== count) throw new Error(`only ${delivered} of ${count} deliveries were committed as delivered`);

    // the limit: plain undici POSTs of the same size and number
    const plainReceiver = await startReceiver(count);
    const sender = await spawnReady('undici-posts.mjs', [
      plainReceiver.url,
      String(count),
      String(PER_WEBHOOK),
      String(bodyBytes),
    ]);
    const undiciMs = await plainReceiver.finished;
    await sender.stop().catch(() => undefined);
    plainReceiver.child.kill('SIGTERM');
    rounds.push({ service_ms: serviceMs, undici_ms: undiciMs });
  }
  const best = (key: 'service_ms' | 'undici_ms') => Math.min(...rounds.map((r) => r[key]));
  const servicePerSecond = Math.round((count / best('service_ms')) * 1000);
  const undiciPerSecond = Math.round((count / best('undici_ms')) * 1000);
  const result = {
    what: 'webhook deliveries a second (committed, signed) as a ratio to plain undici POSTs, same count and concurrency',
    deliveries: count,
    concurrency: PER_WEBHOOK,
    body_bytes: bodyBytes,
    rounds,
    service_per_second: servicePerSecond,
    undici_per_second: undiciPerSecond,
    ratio: ratio(servicePerSecond, undiciPerSecond),
  };
  writeResult('webhook-delivery', result);
  return result;
}
