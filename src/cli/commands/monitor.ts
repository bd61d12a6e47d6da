import { constants } from 'node:os';
import type { Command } from 'commander';
import { enterAlternateScreen } from '../../tui/alternate-screen.js';
import { usageError } from '../exit-codes.js';
import type { MonitorMode } from '../monitor-session.js';
import { parsePort } from '../parse.js';

interface MonitorFlags {
  demo?: boolean;
  offline?: boolean;
  listen?: number;
  city?: string;
  at?: string;
  db?: string;
  notify: boolean;
}

/**
 * `svc-monitor` / `svc-monitor monitor`: the TUI. No key configured means demo; `--offline` opens the cache with
 * no network at all. It needs a terminal: headless use is what sync, listen and export are for.
 */
export function monitorCommand(program: Command): void {
  program
    .command('monitor')
    .description('the terminal monitor, the default command (no key configured means --demo)')
    .option('--demo', 'run against the reference service in-process')
    .option('--offline', 'review the cache with no network')
    .option('--listen <port>', 'also run the webhook listener on this port', parsePort)
    .option('--city <id>', 'city to show first')
    .option('--at <iso>', "start in time travel: every pane as of this instant of the cache's history")
    .option('--db <file>', 'cache file (default <data dir>/svc-monitor/cache.db, or SVC_DB)')
    .option('--no-notify', 'no desktop notification for kill signals')
    .action(async (flags: MonitorFlags) => {
      if (flags.demo && flags.offline) throw usageError('--demo and --offline exclude each other');
      if (flags.offline && flags.listen !== undefined) throw usageError('--offline has no network: no --listen');
      if (!process.stdin.isTTY || !process.stdout.isTTY)
        throw usageError('the monitor needs a terminal; for headless use run sync, listen or export');
      const [{ requireService, resolveConnection }, { replayInstant }] = await Promise.all([
        import('../config.js'),
        import('../replay-instant.js'),
      ]);
      const connection = await resolveConnection({ db: flags.db });
      const mode: MonitorMode = flags.offline ? 'offline' : flags.demo || !connection.apiKey ? 'demo' : 'live';
      if (mode === 'live' && !connection.baseUrl)
        throw usageError('a key is configured but no service: set SVC_BASE_URL or base_url in the config file');
      // an address that is not http(s), or a key no header can carry: refused now, not after a screen of retries
      if (mode === 'live') requireService(connection);
      // the demo's cache lives under the demo dir, never in a file that may be the live cache
      if (mode === 'demo' && flags.db) throw usageError('--db is not for the demo: it keeps its own cache');
      // the monitor draws on a screen of its own from here on: the demo's progress line too, which the first frame
      // replaces; every way out below gives the shell's screen back before anything else is printed
      const screen = enterAlternateScreen(process.stdout, process.stdin);
      // Ctrl+C, SIGTERM, SIGHUP. Before the screen runs (the demo's fill, the cache opening), and for Ctrl+C pressed
      // before Ink has the terminal in raw mode (the line discipline turns it into SIGINT), a signal would kill Node
      // with the alternate screen still up: leave at once, the exit giving the screen back. Once the screen runs, the
      // first signal leaves like q (the session closes); a second one while it closes leaves at once.
      let unmount: (() => void) | undefined;
      const onSignal = (signal: NodeJS.Signals) => {
        if (unmount) {
          const first = unmount;
          unmount = undefined;
          first();
          return;
        }
        process.exit(128 + constants.signals[signal]);
      };
      const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
      for (const signal of signals) process.on(signal, onSignal);
      try {
        if (mode === 'demo')
          process.stderr.write('starting the demo world (the first start fills 30 days: up to a minute)…\n');
        // Ink draws nothing until exit when it believes it runs in CI (is-in-ci reads the environment once, when Ink
        // loads); the monitor has just checked that it has a terminal, so it is interactive whatever CI says
        for (const name of ['CI', 'CONTINUOUS_INTEGRATION']) if (name in process.env) process.env[name] = 'false';
        // Ink and React load only for the TUI: sync, listen and export start without them
        const [{ renderMonitor }, { openSession }] = await Promise.all([
          import('../../tui/render-monitor.js'),
          import('../monitor-session.js'),
        ]);
        const session = await openSession(mode, connection, flags);
        try {
          // --at is checked against the cache's span once it is open, before the first frame: exit 2 naming both
          const replayAt =
            flags.at === undefined ? undefined : replayInstant(flags.at, session.cache, session.now().getTime());
          const ui = renderMonitor({
            cache: session.cache,
            source: session.status,
            initialCity: flags.city,
            onRefresh: session.refresh,
            now: session.now,
            clockOffsetMs: session.clockOffsetMs,
            streamIntervalsMs: session.streamIntervalsMs,
            snoozeMinutes: connection.alerts.snoozeMinutes,
            settlement: connection.settlement,
            edgeMin: connection.alerts.edgeMin,
            replayAt,
            stdout: process.stdout,
            stdin: process.stdin,
          });
          unmount = () => ui.unmount();
          await ui.waitUntilExit();
        } finally {
          unmount = undefined;
          screen.leave();
          // a request or retry wait still in flight must not hold the trader's shell after q: closing gets 3 s
          setTimeout(() => process.exit(process.exitCode ?? 0), 3_000).unref();
          await session.close();
        }
      } finally {
        screen.leave();
        for (const signal of signals) process.off(signal, onSignal);
      }
    });
}
