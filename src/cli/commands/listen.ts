import type { Command } from 'commander';
import { parsePort } from '../parse.js';
import type { ListenFlags } from './listen-run.js';

/**
 * `svc-monitor listen`: the webhook listener alone. Secrets from `--secret` (repeat it for rotation), then
 * SVC_WEBHOOK_SECRET (comma-separated), then the config file. SIGTERM/SIGINT stop accepting, answer and commit
 * what is in flight, and exit 0.
 */
export function listenCommand(program: Command): void {
  program
    .command('listen')
    .description('headless webhook listener')
    .option('--port <n>', 'port', parsePort, 8788)
    .option('--host <h>', 'host', '127.0.0.1')
    .option('--secret <s...>', 'webhook secrets (current and previous)')
    .option('--db <file>', 'cache file (default <data dir>/svc-monitor/cache.db, or SVC_DB)')
    .option('--no-notify', 'no desktop notification for kill signals')
    .action(async (flags: ListenFlags) => {
      // the config first, then the listener: a refused config file answers before the listener is loaded
      const { resolveConnection } = await import('../config.js');
      const connection = await resolveConnection({ db: flags.db });
      const { runListen } = await import('./listen-run.js');
      await runListen(flags, connection);
    });
}
