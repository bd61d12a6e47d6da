import { desktopNotify } from '../../alerts/notifier.js';
import { COMMAND_TIMEOUT_MS } from '../../alerts/notify-command.js';
import { TraderAlerts } from '../../alerts/trader-alerts.js';
import { openCache } from '../../cache/index.js';
import { ApiClient } from '../../client/api-client.js';
import { Cancelled } from '../../client/errors.js';
import { backfill, backfillTables } from '../../sync/backfill.js';
import { wrongBaseUrlHint } from '../../sync/base-url-hint.js';
import { SyncEngine, type SyncSummary } from '../../sync/sync-engine.js';
import { passLine } from '../../sync/sync-summary.js';
import { type Connection, requireService } from '../config.js';
import { daemonLog } from '../daemon-log.js';
import { CliError, EXIT, usageError } from '../exit-codes.js';
import { marketClockOf } from '../market-clock.js';

export interface SyncFlags {
  once?: boolean;
  backfill?: string;
  since?: string;
  until?: string;
  json?: boolean;
  db?: string;
  baseUrl?: string;
  apiKey?: string;
  save?: boolean;
  /** `--no-notify`: the daemon raises no desktop notification (the notify command still runs). */
  notify?: boolean;
}

/** Unreachable everywhere is exit 4; any other failed stream is a runtime failure (1). */
function exitCodeOf(summary: SyncSummary): number {
  if (summary.errors.length === 0) return EXIT.ok;
  const failedAll = Object.keys(summary.streams).length === 0;
  return failedAll && summary.errors.every((e) => e.kind === 'unreachable') ? EXIT.unreachable : EXIT.failure;
}

/** The `sync` command's work: loaded only when `sync` runs, so the monitor's process never holds the sync engine. */
export async function runSync(flags: SyncFlags, connection: Connection): Promise<void> {
  const service = requireService(connection);
  const tables = (() => {
    try {
      return flags.backfill ? backfillTables(flags.backfill) : undefined;
    } catch (error) {
      throw usageError((error as Error).message);
    }
  })();
  const cache = openCache(connection.dbPath);
  // every line stamped, a daemon's, a --once's and a --backfill's alike: the same log read by the same tools
  const log = daemonLog('sync: ');
  // the market's clock: the service's, from its answers (and from the cache's last offset until the first)
  const clock = marketClockOf(cache, { log });
  const client = new ApiClient({ ...service, clock });
  const daemon = !flags.once && !tables;
  // the trader alerts run where market data lands; a daemon also raises desktop notifications, a one-off pass
  // (a script, a cron job) stores its alerts and runs the notify command only
  const alerts = new TraderAlerts({
    cache,
    settings: connection.alerts,
    settlement: connection.settlement,
    now: clock.now,
    notify: daemon && flags.notify !== false ? desktopNotify : null,
    log,
    // how late an alert may be found and still notify (alert-timing.ts): the intervals the sync polls at
    intervals: connection.intervals,
  });
  const engine = new SyncEngine({
    client,
    cache,
    intervals: connection.intervals,
    historyHours: connection.historyHours,
    onStored: () => alerts.request(),
  });
  let signalled = false;
  // the engine cancels the client's requests in flight: a backfill stops after its last committed page too
  const stop = () => {
    signalled = true;
    void engine.stop();
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  const summary: SyncSummary = { streams: {}, errors: [] };
  try {
    if (tables) {
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
      await alerts.flush();
      Object.assign(summary.streams, pass.streams);
      summary.errors.push(...pass.errors);
    } else if (daemon) {
      const [{ runDaemon }, { pruneDaily }] = await Promise.all([
        import('./sync-daemon.js'),
        import('../daily-prune.js'),
      ]);
      const { intervals } = connection;
      // retention once a day of the service's clock (DESIGN 3 `cache prune`)
      const stopPruning = pruneDaily(cache, clock, connection.detailDays, log);
      try {
        await runDaemon({ engine, clock, intervals, baseUrl: client.baseUrl, json: flags.json === true, log });
      } finally {
        stopPruning();
      }
    }
  } catch (error) {
    if (!(signalled && error instanceof Cancelled)) throw error;
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
    await engine.stop();
    // a notify command still running is given its own time limit before the cache closes under it
    await alerts.close(COMMAND_TIMEOUT_MS + 1_000);
    await client.close();
    cache.close();
  }
  // a daemon reported its passes and failures as they came, and a signal is how it is meant to end
  if (daemon) return;
  if (flags.json) {
    process.stdout.write(passLine(summary, clock.now()));
  }
  for (const e of summary.errors) if (!flags.json) log(`${e.stream}: ${e.error}`);
  const hint = wrongBaseUrlHint(summary, client.baseUrl);
  if (hint) log(hint);
  if (signalled) {
    throw new CliError('interrupted: every page fetched before the signal is stored; run again to finish');
  }
  const code = exitCodeOf(summary);
  if (code !== EXIT.ok) throw new CliError(`${summary.errors.length} stream(s) failed`, code);
}
