import type { Command } from 'commander';
import { isoUtc } from '../../domain/city-time.js';
import { DEFAULT_SEED, startService } from '../../server/service.js';
import { parseInstant, parseNonNegativeInt, parsePort, parsePositiveNumber } from '../parse.js';
import { serverDataDir } from '../paths.js';
import { serverKeysCommand } from './server-keys.js';
import { serverWebhooksCommand } from './server-webhooks.js';

interface ServerFlags {
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

/** `svc-monitor server`: the reference service, plus its key and webhook administration. */
export function serverCommand(program: Command): void {
  const server = program
    .command('server')
    .description('serve the v1 interface over a simulated world (default 127.0.0.1:8787)')
    .option('--port <n>', 'port (0 picks a free one)', parsePort, 8787)
    .option('--host <h>', 'address to listen on', '127.0.0.1')
    .option('--seed <n>', 'world seed', parseNonNegativeInt, DEFAULT_SEED)
    .option('--speed <x>', 'simulated seconds per real second', parsePositiveNumber, 1)
    .option('--start <iso>', 'simulated start instant (default: where the world stopped, or now)', parseInstant)
    .option('--api-key <key>', 'make sure this API key exists')
    .option('--admin-token <token>', "the account pages' sign-in token (default: the one kept in DIR/admin-token)")
    .option('--allow-private-webhooks', 'allow webhook targets on private, loopback and link-local addresses')
    .option('--data-dir <dir>', 'where the store lives (default <data dir>/svc-monitor/server)')
    .action(async (flags: ServerFlags) => {
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
    });
  serverKeysCommand(server);
  serverWebhooksCommand(server);
}
