import type { Command } from 'commander';
import { Cache } from '../../cache/cache.js';
import { openCache } from '../../cache/open-cache.js';
import { ApiClient } from '../../client/api-client.js';
import { backfill, backfillTables } from '../../sync/backfill.js';
import { SyncEngine, type SyncSummary } from '../../sync/sync-engine.js';
import { resolveConnection } from '../config.js';
import { CliError, EXIT, usageError } from '../exit-codes.js';
import { configFile } from '../paths.js';

interface SyncFlags {
  once?: boolean;
  backfill?: string;
  since?: string;
  until?: string;
  json?: boolean;
  db?: string;
  baseUrl?: string;
  apiKey?: string;
  save?: boolean;
}

/** Unreachable everywhere is exit 4; any other failed stream is a runtime failure (1). */
function exitCodeOf(summary: SyncSummary): number {
  if (summary.errors.length === 0) return EXIT.ok;
  const failedAll = Object.keys(summary.streams).length === 0;
  return failedAll && summary.errors.every((e) => e.kind === 'unreachable') ? EXIT.unreachable : EXIT.failure;
}

/** `svc-monitor sync`: the service into the local cache, headless. */
export function syncCommand(program: Command): void {
  program
    .command('sync')
    .description('headless sync of the service into the local cache')
    .option('--once', 'one full pass, then exit')
    .option('--backfill <tables>', 'historical tables to drain (comma-separated, or all), then exit')
    .option('--since <date>', 'lower bound for --backfill (YYYY-MM-DD or ISO instant)')
    .option('--until <date>', 'upper bound for --backfill')
    .option('--json', 'print {streams: {name: {fetched, inserted, updated}}, errors: []} on stdout')
    .option('--db <file>', 'cache file (default <data dir>/svc-monitor/cache.db, or SVC_DB)')
    .option('--base-url <url>', 'service address (or SVC_BASE_URL)')
    .option('--api-key <key>', 'API key (or SVC_API_KEY)')
    .option('--save', 'store --base-url and --api-key in the config file (mode 0600)')
    .action(async (flags: SyncFlags) => {
      const connection = resolveConnection(flags);
      if (!connection.baseUrl || !connection.apiKey) {
        throw usageError(
          `no service configured: pass --base-url and --api-key, set SVC_BASE_URL and SVC_API_KEY, or put them in ${configFile()}`,
        );
      }
      const cache = new Cache(openCache(connection.dbPath));
      const client = new ApiClient({ baseUrl: connection.baseUrl, apiKey: connection.apiKey, auth: connection.auth });
      const summary: SyncSummary = { streams: {}, errors: [] };
      const engine = new SyncEngine({ client, cache, intervals: connection.intervals });
      const stop = () => engine.stop();
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
      try {
        if (flags.backfill) {
          const tables = (() => {
            try {
              return backfillTables(flags.backfill);
            } catch (error) {
              throw usageError((error as Error).message);
            }
          })();
          const progress = process.stderr.isTTY
            ? (p: { table: string; rows: number; pages: number; rowsPerSecond: number }) =>
                process.stderr.write(`\r${p.table}: ${p.rows} rows, ${p.rowsPerSecond} rows/s, ${p.pages} pages   `)
            : undefined;
          Object.assign(
            summary.streams,
            await backfill(client, cache, tables, { since: flags.since, until: flags.until }, progress),
          );
          if (progress) process.stderr.write('\n');
        }
        if (flags.once) {
          const pass = await engine.runOnce();
          Object.assign(summary.streams, pass.streams);
          summary.errors.push(...pass.errors);
        } else if (!flags.backfill) {
          await engine.start((pass) => {
            for (const e of pass.errors) process.stderr.write(`sync: ${e.stream}: ${e.error}\n`);
          });
        }
      } finally {
        process.off('SIGINT', stop);
        process.off('SIGTERM', stop);
        await client.close();
        cache.db.close();
      }
      if (flags.json) process.stdout.write(`${JSON.stringify(summary)}\n`);
      for (const e of summary.errors) if (!flags.json) process.stderr.write(`sync: ${e.stream}: ${e.error}\n`);
      const code = exitCodeOf(summary);
      if (code !== EXIT.ok) throw new CliError(`${summary.errors.length} stream(s) failed`, code);
    });
}
