import type { AlertRow, Cache, NewAlert } from '../cache/index.js';
import { type AlertKind, isAlertKind } from '../contract/alert-kinds.js';
import type { NotifyKind, SettlementConfig } from '../contract/config.js';
import { cityNames } from '../domain/city-names.js';
import type { AlertSettings } from './alert-settings.js';
import { clockRateOf, marketIntervals } from './alert-timing.js';
import { runMarketAlerts } from './market-alert-pass.js';
import {
  alertNotification,
  type DesktopNotification,
  moreAlertsNotification,
  type Notify,
  SHOWN_ONE_BY_ONE,
} from './notifier.js';
import { type AlertMessage, NotifyCommand } from './notify-command.js';

/**
 * The switch in `alerts.notify` of each kind; null: it never notifies (a notify command's failure: a broken command
 * would loop; the listener and rejected webhooks are the Alerts pane's).
 */
const NOTIFY_KIND_OF = {
  kill: 'kill',
  'dying-bucket': 'dying_bucket',
  edge: 'edge',
  breakthrough: 'breakthrough',
  'notify-command-failed': null,
  'listener-down': null,
  // raised and notified by the listener itself, as a kill is (a listener that refuses kills is as urgent)
  'listener-refusing': 'kill',
  'webhook-rejected': null,
} as const satisfies Record<AlertKind, NotifyKind | null>;

/** The kind of alert a notify command's failure is stored as. */
const COMMAND_FAILED: AlertKind = 'notify-command-failed';

/**
 * Whether an alert notifies (a desktop notification and the notify command): not found late (`catch_up`), its kind
 * switched on in `alerts.notify`; for the market kinds also its city in `alerts.cities` and not snoozed. A kill is
 * never held back by a city list or a snooze: it is an order to sell.
 */
export function notifies(
  alert: Pick<AlertRow, 'kind' | 'city_id' | 'catch_up'>,
  settings: AlertSettings,
  snoozed: ReadonlySet<string>,
): boolean {
  // found late (DESIGN 4 "alerts in time"): listed by its own instant, never notified
  if (alert.catch_up) return false;
  const kind = isAlertKind(alert.kind) ? NOTIFY_KIND_OF[alert.kind] : null;
  if (kind === null || !settings.notify[kind]) return false;
  if (kind === 'kill') return true;
  const city = alert.city_id;
  if (city === null) return true;
  if (settings.cities !== 'all' && !settings.cities.includes(city)) return false;
  return !snoozed.has(city);
}

/** What the notify command is given of an alert row: its fields, nothing else. */
export const alertMessage = (a: AlertRow): AlertMessage => ({
  id: a.id,
  kind: a.kind,
  severity: a.severity,
  city_id: a.city_id,
  ref: a.ref,
  created_at: a.created_at,
  message: a.message,
});

/** A notify command's failure, stored as an alert of its own. */
export function commandFailedAlert(alert: AlertMessage, reason: string, at: Date): NewAlert {
  return {
    severity: 'warning',
    kind: COMMAND_FAILED,
    ref: String(alert.id),
    ...(alert.city_id ? { city_id: alert.city_id } : {}),
    created_at: at.toISOString(),
    message: `notify_command failed on the ${alert.kind} alert #${alert.id}: ${reason}`,
  };
}

export interface TraderAlertsOptions {
  cache: Cache;
  settings: AlertSettings;
  /** The config's `settlement`: each city's rule, by which the rules price its buckets (metar_c when absent). */
  settlement?: SettlementConfig;
  /** The market's clock (DESIGN 4, the service's): today's market, when an alert was raised, and snoozes' ends. */
  now: () => Date;
  /** Desktop notifications; null: none (`--no-notify`, `sync --once`). */
  notify: Notify | null;
  log: (line: string) => void;
  /** The notify command's time limit (10 s; shorter in tests). */
  commandTimeoutMs?: number;
  /** How long a request waits for the rest of a burst of fresh data before the rules run. */
  settleMs?: number;
  /** The streams' poll intervals (config `intervals`; the defaults otherwise): how late an alert may be found. */
  intervals?: Readonly<Record<string, number>>;
}

/**
 * The trader alerts of DESIGN 3 and issue 14, run where fresh market data lands: the sync engine `request`s a pass
 * after each stream's pass that stored something, and passes coalesce (one runs at a time; requests while it runs
 * make one more). Each new alert that `notifies` raises a desktop notification and goes to the notify command,
 * both fire and forget.
 */
export class TraderAlerts {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private closed = false;
  private desktopFailed = false;
  private readonly notifying = new Set<Promise<void>>();
  /** The last desktop notification asked for: the next waits for it. */
  private desktop: Promise<void> = Promise.resolve();
  private readonly command: NotifyCommand | null;
  /** The first pass's instants on the host's and the market's clock: how fast the market's runs (`clockRate`). */
  private firstPass: { hostMs: number; marketMs: number } | undefined;

  constructor(private readonly options: TraderAlertsOptions) {
    const argv = options.settings.notifyCommand;
    this.command = argv
      ? new NotifyCommand({
          argv,
          timeoutMs: options.commandTimeoutMs,
          onFailure: (alert, reason) => this.storeFailure(alert, reason),
        })
      : null;
  }

  /** An alert raised elsewhere (a kill, by the listener) to the notify command, if one is set. */
  forward(alert: AlertMessage): void {
    if (!this.closed) this.command?.send(alert);
  }

  /** Fresh data landed: a pass soon (after the one running, if any). */
  request(): void {
    if (this.closed) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      void this.pass();
    }, this.options.settleMs ?? 250);
  }

  /** A pass now (after the one running), then waits for its notifications and commands: `sync --once`'s end. */
  async flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.running;
    await this.pass();
    await this.settled();
  }

  /**
   * No more passes; waits up to `ms` for the one running and the notifications and commands under way, so the
   * cache can close (a command still running then is left to its own time limit).
   */
  async close(ms: number): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, ms);
    });
    const finished = (async () => {
      await this.running;
      await this.settled();
    })();
    await Promise.race([finished, waited]);
    clearTimeout(timer);
  }

  private async settled(): Promise<void> {
    while (this.notifying.size > 0) await Promise.allSettled([...this.notifying]);
    await this.command?.idle();
  }

  private pass(): Promise<void> {
    if (this.closed && this.running) return this.running;
    const run = (async () => {
      try {
        const { cache, settings, now, settlement } = this.options;
        const at = now();
        const intervals = marketIntervals(this.options.intervals ?? {}, this.clockRate(at.getTime()));
        this.raise(await runMarketAlerts(cache, settings.edgeMin, at, settlement, intervals));
      } catch (error) {
        // a pass that could not read or write (the cache busy, closing) is retried with the next fresh data
        this.options.log(`trader alerts: ${error instanceof Error ? error.message : String(error)}`);
      }
    })();
    this.running = run.finally(() => {
      this.running = undefined;
      if (this.again && !this.closed) {
        this.again = false;
        this.request();
      }
    });
    return this.running;
  }

  /**
   * The market's seconds a host second: a reference service at `--speed` runs its clock faster, and an alert's
   * lateness is counted on it (alert-timing.ts). Since the first pass, once a minute has gone by; before, from the
   * streams' last passes (the first sync's passes are seconds apart); 1 when neither says.
   */
  private clockRate(marketMs: number): number {
    const hostMs = Date.now();
    this.firstPass ??= { hostMs, marketMs };
    const host = hostMs - this.firstPass.hostMs;
    if (host >= 60_000)
      return (
        clockRateOf([
          {
            last_success_at: new Date(this.firstPass.marketMs).toISOString(),
            last_success_host_ms: this.firstPass.hostMs,
          },
          { last_success_at: new Date(marketMs).toISOString(), last_success_host_ms: hostMs },
        ]) ?? 1
      );
    return clockRateOf(this.options.cache.streams.states()) ?? 1;
  }

  /**
   * The new alerts that `notify`: each to the notify command; on the desktop the first few one by one and the rest
   * of a burst in one notification (a first sync can raise dozens of edges at once).
   */
  private raise(alerts: readonly AlertRow[]): void {
    const { cache, settings, notify } = this.options;
    if (alerts.length === 0) return;
    const snoozed = new Set(cache.alerts.snoozed(this.options.now().getTime()).map((s) => s.city_id));
    const notifying = alerts.filter((a) => notifies(a, settings, snoozed));
    for (const alert of notifying) this.command?.send(alertMessage(alert));
    if (!notify || notifying.length === 0) return;
    const name = cityNames(cache.resources.cities());
    for (const alert of notifying.slice(0, SHOWN_ONE_BY_ONE)) this.show(alertNotification(alert, name), [alert]);
    const rest = notifying.slice(SHOWN_ONE_BY_ONE);
    if (rest.length > 0) this.show(moreAlertsNotification(rest, name), rest);
  }

  /**
   * One desktop notification, after the one before it (they pop up in order), its alerts marked notified once it
   * returned (shown or not).
   */
  private show(notification: DesktopNotification, about: readonly AlertRow[]): void {
    const { cache, notify } = this.options;
    if (!notify) return;
    const shown = this.desktop
      .then(() => notify(notification))
      .catch((error: unknown) => {
        // said once: a desktop without a notification daemon fails every time, and the alerts are stored anyway
        if (this.desktopFailed) return;
        this.desktopFailed = true;
        const why = error instanceof Error ? error.message : String(error);
        this.options.log(`desktop notification failed (${why}); alerts are still stored`);
      })
      .then(() => {
        const at = new Date().toISOString();
        if (!this.closed) for (const alert of about) cache.alerts.markNotified(alert.id, at);
      })
      .catch(() => undefined)
      .finally(() => this.notifying.delete(shown));
    this.desktop = shown;
    this.notifying.add(shown);
  }

  private storeFailure(alert: AlertMessage, reason: string): void {
    try {
      this.options.cache.alerts.add(commandFailedAlert(alert, reason, this.options.now()));
    } catch (error) {
      this.options.log(`notify_command failed (${reason}), and so did storing that: ${String(error)}`);
    }
  }
}
