import { desktopNotify } from '../../alerts/notifier.js';
import { COMMAND_TIMEOUT_MS } from '../../alerts/notify-command.js';
import { TraderAlerts } from '../../alerts/trader-alerts.js';
import { openCache } from '../../cache/index.js';
import { ApiClient } from '../../client/api-client.js';
import { Cancelled } from '../../client/errors.js';
import { backfill, backfillTables } from '../../sync/backfill.js';
import { STREAMS } from '../../sync/streams.js';
import { addOutcome, SyncEngine, type SyncSummary } from '../../sync/sync-engine.js';
import { type Connection, requireService } from '../config.js';
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
  const log = (line: string) => process.stderr.write(`sync: ${line}\n`);
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
    notify: daemon ? desktopNotify : null,
    log,
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
  let summary: SyncSummary = { streams: {}, errors: [] };
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
      summary = await runDaemon(engine, connection);
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
  if (flags.json) process.stdout.write(`${JSON.stringify(summary)}\n`);
  // a daemon reported its failures as they came, and a signal is how it is meant to end
  if (daemon) return;
  for (const e of summary.errors) if (!flags.json) process.stderr.write(`sync: ${e.stream}: ${e.error}\n`);
  if (signalled) {
    throw new CliError('interrupted: every page fetched before the signal is stored; run again to finish');
  }
  const code = exitCodeOf(summary);
  if (code !== EXIT.ok) throw new CliError(`${summary.errors.length} stream(s) failed`, code);
}

/**
 * The headless daemon of DESIGN 3: polls every stream on its interval until SIGTERM or SIGINT, each failure one line
 * on stderr as it happens. Returns what was fetched in all, with each stream's latest failure.
 */
async function runDaemon(engine: SyncEngine, connection: Connection): Promise<SyncSummary> {
  const every = STREAMS.map((s) => `${s.name} ${(connection.intervals[s.name] ?? s.everyMs) / 1000}s`).join(', ');
  process.stderr.write(`sync: polling until SIGTERM or Ctrl-C (${every})\n`);
  const totals: SyncSummary['streams'] = {};
  const latestError = new Map<string, SyncSummary['errors'][number]>();
  await engine.start((outcome) => {
    if (outcome.counts) {
      const into = totals[outcome.stream] ?? { fetched: 0, inserted: 0, updated: 0 };
      into.fetched += outcome.counts.fetched;
      into.inserted += outcome.counts.inserted;
      into.updated += outcome.counts.updated;
      totals[outcome.stream] = into;
    }
    if (outcome.error) process.stderr.write(`sync: ${outcome.stream}: ${outcome.error.error}\n`);
    if (outcome.error) latestError.set(outcome.stream, outcome.error);
    else latestError.delete(outcome.stream);
  });
  const summary: SyncSummary = { streams: totals, errors: [] };
  for (const error of latestError.values()) addOutcome(summary, { stream: error.stream, error });
  return summary;
}
