import type { Command } from 'commander';

const DB_HELP = 'cache file (default <data dir>/svc-monitor/cache.db, or SVC_DB)';

/**
 * `svc-monitor cache prune|backup FILE|check` (DESIGN 3): the cache's upkeep. The cache and the config load when a
 * subcommand runs (cache-run.ts): `cache --help` and its usage errors need none of them.
 */
export function cacheCommand(program: Command): void {
  const cache = program.command('cache').description("the cache's upkeep: retention, backup, check");
  cache
    .command('prune')
    .description('thin the days older than retention.detail_days to the hour now, and give the space back')
    .option('--db <file>', DB_HELP)
    .action(async (flags: { db?: string }) => {
      const { runPrune } = await import('./cache-run.js');
      await runPrune(flags);
    });
  cache
    .command('backup')
    .description('an online copy of the cache into FILE (a new file), while sync, listen and the monitor run')
    .argument('<file>', 'the copy to make; an existing file is refused')
    .option('--db <file>', DB_HELP)
    .action(async (file: string, flags: { db?: string }) => {
      const { runBackup } = await import('./cache-run.js');
      await runBackup(file, flags);
    });
  cache
    .command('check')
    .description("PRAGMA integrity_check and the cache's own invariants: exit 1 naming what is wrong")
    .option('--db <file>', DB_HELP)
    .action(async (flags: { db?: string }) => {
      const { runCheck } = await import('./cache-run.js');
      await runCheck(flags);
    });
}
