import { desktopNotify } from '../../alerts/notifier.js';
import { COMMAND_TIMEOUT_MS, NotifyCommand } from '../../alerts/notify-command.js';
import { commandFailedAlert } from '../../alerts/trader-alerts.js';
import { openCache } from '../../cache/index.js';
import { startListener } from '../../receiver/listener.js';
import type { Connection } from '../config.js';
import { daemonLog } from '../daemon-log.js';
import { usageError } from '../exit-codes.js';
import { marketClockOf } from '../market-clock.js';
import { configFile } from '../paths.js';

/** How often the listener looks for a newer offset of the service's clock in the cache (a query of one row). */
const CLOCK_FOLLOW_MS = 60_000;

export interface ListenFlags {
  port: number;
  host: string;
  secret?: string[];
  db?: string;
  notify: boolean;
}

/** The `listen` command's work: the listener loads only when `listen` runs. */
export async function runListen(flags: ListenFlags, connection: Connection): Promise<void> {
  const secrets = flags.secret?.length ? flags.secret : connection.webhookSecrets;
  if (secrets.some((secret) => secret === '')) throw usageError('a webhook secret cannot be empty');
  if (secrets.length === 0) {
    throw usageError(
      `no webhook secret configured: pass --secret, set SVC_WEBHOOK_SECRET, or put webhook_secrets in ${configFile()}`,
    );
  }
  const cache = openCache(connection.dbPath);
  // events are received, and kills alerted, on the market's clock as the cache last knew it (DESIGN 4)
  const clock = marketClockOf(cache);
  const log = daemonLog();
  // Node's own warnings (a failed after-commit hook, group-commit.ts) as stamped lines too, not its bare `(node:PID)`
  process.removeAllListeners('warning');
  process.on('warning', (warning) => log(`warning: ${warning.message}`));
  const { notifyCommand, notify } = connection.alerts;
  // kills to the notify command (with `alerts.notify.kill` on); its failure is an alert, never the listener's
  const command =
    notifyCommand && notify.kill
      ? new NotifyCommand({
          argv: notifyCommand,
          onFailure: (alert, reason) => {
            try {
              cache.alerts.add(commandFailedAlert(alert, reason, clock.now()));
            } catch (error) {
              log(`notify_command failed (${reason}), and so did storing that: ${String(error)}`);
            }
          },
        })
      : undefined;
  const listener = await startListener({
    cache,
    secrets,
    host: flags.host,
    port: flags.port,
    // `alerts.notify.kill: false` in the config silences them as --no-notify does
    notify: flags.notify && notify.kill ? desktopNotify : null,
    forward: command ? (alert) => command.send(alert) : undefined,
    log,
    now: clock.now,
  }).catch((error: unknown) => {
    cache.close();
    throw error;
  });
  // a `sync` elsewhere keeps the service's clock in the cache: followed, so replays are judged on it (DESIGN 4)
  const followClock = setInterval(() => {
    const offset = cache.streams.clockOffset();
    if (offset !== null) clock.follow(offset);
  }, CLOCK_FOLLOW_MS);
  followClock.unref();
  // the handlers go in before the line that tells a supervisor it may signal us
  const stopped = new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  process.stdout.write(`listening on ${listener.url}\n`);
  await stopped;
  await listener.close();
  clearInterval(followClock);
  // a command under way gets its time limit before the cache closes under its failure alert
  if (command) {
    let timer: NodeJS.Timeout | undefined;
    const limit = new Promise((resolve) => {
      timer = setTimeout(resolve, COMMAND_TIMEOUT_MS + 1_000);
    });
    await Promise.race([command.idle(), limit]);
    clearTimeout(timer);
  }
  cache.close();
  // a desktop notification that never returned (a hung notify-send) is given up: its child would keep the process
  // alive past SIGTERM. Unref'd, this fires only when something else still holds the process a second after the end
  setTimeout(() => process.exit(process.exitCode ?? 0), 1_000).unref();
}
