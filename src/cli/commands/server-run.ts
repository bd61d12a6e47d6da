import { isoUtc } from '../../domain/city-time.js';
import { startService } from '../../server/service.js';
import { serverDataDir } from '../paths.js';

export interface ServerFlags {
  port: number;
  host: string;
  seed: number;
  speed: number;
  start?: number;
  apiKey?: string;
  adminToken?: string;
  allowPrivateWebhooks?: boolean;
  dataDir?: string;
}

/** The `server` command's work: the service (Fastify, the world) loads only when `server` runs. */
export async function runServer(flags: ServerFlags): Promise<void> {
  const service = await startService({
    dataDir: flags.dataDir ?? serverDataDir(),
    host: flags.host,
    port: flags.port,
    seed: flags.seed,
    speed: flags.speed,
    start: flags.start,
    apiKey: flags.apiKey,
    adminToken: flags.adminToken,
    allowPrivateWebhooks: flags.allowPrivateWebhooks,
  });
  // the handlers go in before the line that tells a supervisor it may signal us: a SIGTERM that came between the
  // two would meet the default action and end the process without closing the store
  const stopped = new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  process.stdout.write(`listening on ${service.baseUrl}\naccount pages: ${service.accountUrl}\n`);
  process.stderr.write(`world clock ${isoUtc(service.clock.now())}, x${flags.speed}, seed ${flags.seed}\n`);
  await stopped;
  await service.close();
}
