import type { Command } from 'commander';
import { resolveConnection } from '../config.js';
import { usageError } from '../exit-codes.js';
import type { MonitorMode } from '../monitor-session.js';
import { parsePort } from '../parse.js';

interface MonitorFlags {
  demo?: boolean;
  offline?: boolean;
  listen?: number;
  city?: string;
  db?: string;
  notify: boolean;
}

/**
 * `svc-monitor` / `svc-monitor monitor`: the TUI. No key configured means demo; `--offline` opens the cache with
 * no network at all. It needs a terminal: headless use is what sync, listen and export are for.
 */
export function monitorCommand(program: Command): void {
  program
    .command('monitor', { isDefault: true })
    .description('the terminal monitor (no key configured means --demo)')
    .option('--demo', 'run against the reference service in-process')
    .option('--offline', 'review the cache with no network')
    .option('--listen <port>', 'also run the webhook listener on this port', parsePort)
    .option('--city <id>', 'city to show first')
    .option('--db <file>', 'cache file (default <data dir>/svc-monitor/cache.db, or SVC_DB)')
    .option('--no-notify', 'no desktop notification for kill signals')
    .action(async (flags: MonitorFlags) => {
      if (flags.demo && flags.offline) throw usageError('--demo and --offline exclude each other');
      if (!process.stdin.isTTY || !process.stdout.isTTY)
        throw usageError('the monitor needs a terminal; for headless use run sync, listen or export');
      const connection = resolveConnection({ db: flags.db });
      const mode: MonitorMode = flags.offline
        ? 'offline'
        : flags.demo || !connection.apiKey || !connection.baseUrl
          ? 'demo'
          : 'live';
      if (mode === 'demo')
        process.stderr.write('starting the demo world (the first start fills 30 days, a few seconds)…\n');
      // Ink and React load only for the TUI: sync, listen and export start without them
      const [{ renderMonitor }, { openSession }] = await Promise.all([
        import('../../tui/render-monitor.js'),
        import('../monitor-session.js'),
      ]);
      const session = await openSession(mode, connection, flags);
      try {
        const ui = renderMonitor({
          cache: session.cache,
          source: session.status,
          initialCity: flags.city,
          onRefresh: session.refresh,
          now: session.now,
          streamIntervalsMs: session.streamIntervalsMs,
          stdout: process.stdout,
          stdin: process.stdin,
        });
        await ui.waitUntilExit();
      } finally {
        await session.close();
      }
    });
}
