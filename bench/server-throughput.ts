import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Load, load, median, ratio, spawnReady, writeResult } from './lib.js';
import { BENCH_KEY, prepareWorld } from './prepare-world.js';

/**
 * Requests a second the reference service sustains on `/cities` and `/fusion-locks?limit=500`, each as a ratio to
 * a bare node:http server answering the same bytes, under the same autocannon load in the same run.
 */
export async function benchServerThroughput(seconds = 3): Promise<object> {
  const dir = prepareWorld();
  const service = await spawnReady('service-process.mjs', [dir, BENCH_KEY]);
  const headers = { 'x-api-key': BENCH_KEY };
  const endpoints: Record<
    string,
    { service: Load; bare: Load; fastify: Load; ratio: number; ratio_to_fastify: number; bytes: number }
  > = {};
  try {
    for (const path of ['/cities', '/fusion-locks?limit=500']) {
      const body = Buffer.from(await (await fetch(`${service.url}${path}`, { headers })).arrayBuffer());
      const bodyFile = join(dir, 'bare-body.json');
      writeFileSync(bodyFile, body);
      const bare = await spawnReady('bare-process.mjs', [bodyFile]);
      const fastify = await spawnReady('fastify-process.mjs', [bodyFile]);
      try {
        // three interleaved rounds, medians: the machine's drift falls on all three servers alike
        const rounds: { served: Load; baseline: Load; framework: Load }[] = [];
        for (let round = 0; round < 3; round++) {
          rounds.push({
            served: await load(`${service.url}${path}`, { connections: 20, seconds, headers }),
            baseline: await load(bare.url, { connections: 20, seconds }),
            framework: await load(fastify.url, { connections: 20, seconds }),
          });
        }
        const served = median(rounds.map((r) => r.served));
        const baseline = median(rounds.map((r) => r.baseline));
        const framework = median(rounds.map((r) => r.framework));
        endpoints[path] = {
          service: served,
          bare: baseline,
          fastify: framework,
          ratio: ratio(served.requestsPerSecond, baseline.requestsPerSecond),
          ratio_to_fastify: ratio(served.requestsPerSecond, framework.requestsPerSecond),
          bytes: body.length,
        };
      } finally {
        await bare.stop();
        await fastify.stop();
      }
    }
  } finally {
    await service.stop();
  }
  const result = {
    what: 'requests/s of the service as a ratio to bare node:http serving the same bytes (and to plugin-less Fastify)',
    endpoints,
  };
  writeResult('server-throughput', result);
  return result;
}
