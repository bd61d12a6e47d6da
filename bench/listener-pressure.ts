import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { flood, listenWithFileLimit, postFresh, rssMiB } from '../test/helpers/listener-flood.js';
import { isolatedEnv } from '../test/helpers/listener-harness.js';
import { PRIMARY_SECRET, signed, testEvent } from '../test/helpers/webhook-events.js';
import { ratio, writeResult } from './lib.js';

/**
 * The timings test/receiver/listener-limits.test.ts and write-lock.test.ts leave out, each as a ratio to the same
 * listener unpressed in the same run:
 * - a signed delivery on a fresh connection while 300 slow unsigned senders flood a listener under `ulimit -n 256`,
 *   vs with no flood (goal: under 8 s, the service's timeout, at its worst), and the listener's memory growth
 *   during the flood vs the bodies the flood sent (the limits hold 16 MiB of them; without, it grew with all);
 * - an unsigned request while another process holds the cache's write lock vs with the lock free (goal: the same
 *   order: the listener never waits on the lock on its event loop).
 */
export async function benchListenerPressure(deliveries = 20): Promise<object> {
  const root = mkdtempSync(join(tmpdir(), 'bench-listener-pressure-'));
  const env = isolatedEnv(root);
  const dbFile = join(root, 'cache.db');
  const listener = listenWithFileLimit(dbFile, 256, env);
  try {
    const url = await listener.url;
    const pid = listener.child.pid as number;
    const timeDeliveries = async () => {
      const ms: number[] = [];
      for (let i = 0; i < deliveries; i++) {
        const answer = await postFresh(url, signed(PRIMARY_SECRET, testEvent()));
        if (answer.status !== 200) throw new Error(`a delivery was answered ${answer.status}: ${answer.body}`);
        ms.push(answer.ms);
      }
      return summary(ms);
    };
    await timeDeliveries(); // warm-up: parser, schema, statements
    const quiet = await timeDeliveries();

    const baseline = rssMiB(pid);
    let peak = baseline;
    const sampler = setInterval(() => {
      peak = Math.max(peak, rssMiB(pid));
    }, 50);
    const senders = flood(Number(new URL(url).port), 300);
    while (senders.stats.dropped === 0) await new Promise((r) => setTimeout(r, 20));
    // deliveries go on until the flood has sent FLOOD_MIB of bodies (about 6 s at 48 MiB/s), one every 200 ms
    const floodedMs: number[] = [];
    while (senders.stats.bytesSent < FLOOD_MIB * 1024 * 1024) {
      const answer = await postFresh(url, signed(PRIMARY_SECRET, testEvent()));
      if (answer.status !== 200) throw new Error(`a delivery was answered ${answer.status}: ${answer.body}`);
      floodedMs.push(answer.ms);
      await new Promise((r) => setTimeout(r, 200));
    }
    const flooded = summary(floodedMs);
    await senders.stop();
    clearInterval(sampler);
    const floodMiB = senders.stats.bytesSent / 1024 / 1024;

    const unsigned = async () => {
      const ms: number[] = [];
      for (let i = 0; i < deliveries; i++) {
        const started = performance.now();
        const answer = await fetch(url, {
          method: 'POST',
          body: '{"event_type":"webhook.test"}',
          headers: { 'content-type': 'application/json' },
        });
        await answer.arrayBuffer();
        if (answer.status !== 401) throw new Error(`an unsigned request was answered ${answer.status}`);
        ms.push(performance.now() - started);
      }
      return summary(ms);
    };
    await unsigned(); // warm-up
    const free = await unsigned();
    const holder = new Database(dbFile);
    holder.exec('BEGIN IMMEDIATE');
    // a delivery waiting for the lock, as a sync mid-transaction would leave one
    const waiting = postFresh(url, signed(PRIMARY_SECRET, testEvent()));
    const locked = await unsigned();
    holder.exec('COMMIT');
    holder.close();
    await waiting;

    const result = {
      deliveries,
      flood: {
        senders: 300,
        flooded_deliveries: floodedMs.length,
        dropped: senders.stats.dropped,
        delivery_ms: { quiet, flooded },
        ratio_p50: ratio(flooded.p50, quiet.p50),
        worst_delivery_ms: flooded.max,
        rss_mib: { baseline: round(baseline), peak: round(peak), growth: round(peak - baseline) },
        flood_body_mib: round(floodMiB),
        ratio_growth_to_bodies: ratio(peak - baseline, floodMiB),
      },
      lock: { unsigned_ms: { free, locked }, ratio_p50: ratio(locked.p50, free.p50) },
    };
    writeResult('listener-pressure', result);
    return result;
  } finally {
    listener.child.kill('SIGTERM');
    await listener.exited;
    rmSync(root, { recursive: true, force: true });
  }
}

/** Bodies the flood sends before it stops: more than the 16 MiB the listener may hold, 300 senders' worth. */
const FLOOD_MIB = 256;

const round = (n: number) => Math.round(n * 10) / 10;

function summary(ms: number[]): { p50: number; max: number } {
  const sorted = [...ms].sort((a, b) => a - b);
  return { p50: round(sorted[Math.floor(sorted.length / 2)] ?? 0), max: round(sorted[sorted.length - 1] ?? 0) };
}
