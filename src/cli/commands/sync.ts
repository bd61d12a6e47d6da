import type { Command } from 'commander';
import { parseQueryBoundArg } from '../parse.js';
import type { SyncFlags } from './sync-run.js';

/** `svc-monitor sync`: the service into the local cache, headless. */
export function syncCommand(program: Command): void {
  program
    .command('sync')
    .description('headless sync of the service into the local cache; without --once it polls until SIGTERM/SIGINT')
    .option('--once', 'one full pass, then exit')
    .option('--backfill <tables>', 'historical tables to drain (comma-separated, or all), then exit')
    .option(
      '--since <date>',
      'lower bound for --backfill: YYYY-MM-DD (a UTC day) or an ISO 8601 instant (no offset: UTC)',
      parseQueryBoundArg,
    )
    .option('--until <date>', 'upper bound for --backfill, as --since', parseQueryBoundArg)
    .option(
      '--json',
      'print {at, streams: {name: {fetched, inserted, updated}}, errors: []} on stdout; as a daemon one such line a pass',
    )
    .option('--no-notify', 'no desktop notification from the daemon (the notify command still runs)')
    .option('--db <file>', 'cache file (default <data dir>/svc-monitor/cache.db, or SVC_DB)')
    .option('--base-url <url>', 'service address (or SVC_BASE_URL)')
    .option('--api-key <key>', 'API key (or SVC_API_KEY; a flag shows in ps, the variable does not)')
    .option('--save', 'store --base-url and --api-key in the config file (mode 0600)')
    .action(async (flags: SyncFlags) => {
      // the config first, then the sync engine: a refused config file answers before the engine, the API's
      // validators and the HTTP client are loaded
      const { resolveConnection } = await import('../config.js');
      const connection = await resolveConnection(flags);
      const { runSync } = await import('./sync-run.js');
      await runSync(flags, connection);
    });
}
