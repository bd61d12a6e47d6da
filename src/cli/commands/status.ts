import type { Command } from 'commander';
import type { StatusFlags } from './status-run.js';

/** `svc-monitor status`: one look at the whole installation, for a person or a cron job (DESIGN 3). */
export function statusCommand(program: Command): void {
  program
    .command('status')
    .description(
      'the config in force, the service, each stream, the listener and the cache; exit 0 healthy, 1 something ' +
        'needs a person, 3 key rejected, 4 service unreachable',
    )
    .option('--json', 'one object with the same facts on stdout (src/contract/status.ts)')
    .option('--offline', 'the cache alone: no request to the service')
    .option('--db <file>', 'cache file (default <data dir>/svc-monitor/cache.db, or SVC_DB)')
    .action(async (flags: StatusFlags) => {
      // the config first: a refused config file answers before the cache and the client load
      const { resolveConnection } = await import('../config.js');
      const connection = await resolveConnection({ db: flags.db });
      const { runStatus } = await import('./status-run.js');
      await runStatus(flags, connection);
    });
}
