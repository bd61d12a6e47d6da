import type { Command } from 'commander';
import { parseDateOrInstantArg } from '../parse.js';
import { checkExportFlags, type ExportFlags } from './export-flags.js';

/** `svc-monitor export NAME`: cache contents, API rows exactly as the API returned them. */
export function exportCommand(program: Command): void {
  program
    .command('export')
    .description('print cache contents')
    .argument(
      '<name>',
      'cities, current, forecasts, fusion-locks, no24, yescore, svc-max-picks, historical/<table>, webhook-events, insurance-picks, edge-trades, alerts, rejected-webhooks, board, board-record',
    )
    .option('--format <f>', 'json, ndjson or csv', 'json')
    .option('--city <id>', 'only this city')
    .option(
      '--since <date>',
      'lower bound (inclusive): YYYY-MM-DD (a UTC day) or an ISO 8601 instant (no offset: UTC)',
      parseDateOrInstantArg,
    )
    .option('--until <date>', 'upper bound (inclusive), as --since', parseDateOrInstantArg)
    .option('--at <iso>', 'board: as of this instant of the cache (ISO 8601 with its offset)')
    .option('--date <yyyy-mm-dd>', "board: this market day in every city (default: each city's date at the instant)")
    .option('--db <file>', 'cache file (default <data dir>/svc-monitor/cache.db, or SVC_DB)')
    .action(async (name: string, flags: ExportFlags) => {
      // the cache, the board and the config's checks load when an export runs: `export --help` and an argument error
      // need none of them
      checkExportFlags(name, flags);
      const { runExport } = await import('./export-run.js');
      await runExport(name, flags);
    });
}
