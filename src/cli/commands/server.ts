import type { Command } from 'commander';
import { DEFAULT_SEED } from '../../server/errors.js';
import { parseInstant, parseNonNegativeInt, parsePort, parsePositiveNumber } from '../parse.js';
import { serverKeysCommand } from './server-keys.js';
import type { ServerFlags } from './server-run.js';
import { serverWebhooksCommand } from './server-webhooks.js';

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
      const { runServer } = await import('./server-run.js');
      await runServer(flags);
    });
  serverKeysCommand(server);
  serverWebhooksCommand(server);
}
