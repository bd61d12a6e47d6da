import { killAlertMessage } from '../alerts/kill-alert.js';
import { refusingNotification } from '../alerts/listener-refusing-alert.js';
import { type DesktopNotification, killNotification, type Notify } from '../alerts/notifier.js';
import type { AlertMessage } from '../alerts/notify-command.js';
import { type Cache, writeWhenFree } from '../cache/index.js';
import { cityNames } from '../domain/city-names.js';
import type { KillSignal } from '../domain/kill-signal.js';

/**
 * How long marking a kill notified may wait for another process's write lock. Past it the mark is given up and
 * the kill is shown once more at the next start: a repeated popup, never a missing one.
 */
const MARK_DEADLINE_MS = 30_000;

export interface KillNotifierOptions {
  cache: Cache;
  /** null: notifications are off (`--no-notify`); the kills are marked done without one. */
  notify: Notify | null;
  /** The listener's writes, with its short wait for the lock (cache/db/busy-writes.ts). */
  write: <T>(write: () => T) => T;
  log: (line: string) => void;
  /** After each notification: shown, or failed (no daemon, no notify-send). */
  onResult: (shown: boolean) => void;
  /**
   * The config's `notify_command` (alerts/notify-command.ts), when it is set and `alerts.notify.kill` is on: each
   * kill alert goes to it once, whatever `--no-notify` says of the desktop. Returns at once.
   */
  forward?: (alert: AlertMessage) => void;
}

/** One alert to notify: what the notify command gets, and the popup (built only when there is a desktop to show it). */
interface Notice {
  alertId: number;
  message?: AlertMessage;
  desktop: (() => DesktopNotification) | string;
}

/**
 * Each kill alert's desktop notification, once, even across a crash; and the listener's refusing alert the same way,
 * because a listener refusing kills is as urgent as a kill (DESIGN 4). An alert is committed first, and is marked
 * `notified_at` only after the notifier returned: a listener killed in between leaves it unmarked, and the next
 * listener to start shows it then. A failed notification is marked too (and logged): the alert stays in the Alerts
 * pane, and a desktop without a notification daemon does not get every old kill retried at each start.
 */
export class KillNotifier {
  /** Alerts whose notification is under way in this process, by alert id. */
  private readonly underWay = new Map<number, Promise<void>>();
  private closed = false;

  constructor(private readonly options: KillNotifierOptions) {}

  /** Every kill alert, and the standing refusing alert, not notified yet: at the listener's start, those a crash cut short. */
  notifyPending(): void {
    this.start(this.killNotices(this.options.cache.inbox.unnotifiedKills()));
    this.notifyRefusing();
  }

  /** The kill alerts about these picks not notified yet: after a commit that stored events of them. */
  notifyAbout(pickIds: readonly string[]): void {
    if (pickIds.length > 0) this.start(this.killNotices(this.options.cache.inbox.unnotifiedKills(pickIds)));
  }

  /** The refusing alert standing, when not notified yet: after a write of refusals raised it (refusal-recorder.ts). */
  notifyRefusing(): void {
    this.start(
      this.options.cache.inbox.unnotifiedRefusing().map((alert) => ({
        alertId: alert.id,
        message: { ...alert, kind: 'listener-refusing', city_id: null, ref: null },
        desktop: () => refusingNotification(alert),
      })),
    );
  }

  /**
   * Waits up to `ms` for the notifications under way to return and be marked, then marks nothing more (the cache
   * is about to close): one that has not returned by then is shown again at the next start.
   */
  async close(ms: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, ms);
    });
    await Promise.race([Promise.all(this.underWay.values()), waited]);
    clearTimeout(timer);
    this.closed = true;
  }

  private killNotices(kills: { alertId: number; pickId: string; createdAt: string; signal?: KillSignal }[]): Notice[] {
    return kills.map(({ alertId, pickId, createdAt, signal }) =>
      signal
        ? {
            alertId,
            message: killMessage(alertId, pickId, createdAt, signal),
            // the city's name from the cached cities (the listener alone may have none yet: then its id)
            desktop: () => killNotification(signal, cityNames(this.options.cache.resources.cities())),
          }
        : { alertId, desktop: `kill alert of pick ${pickId}: the pick is not in the cache, no notification` },
    );
  }

  private start(notices: Notice[]): void {
    for (const notice of notices) {
      if (this.underWay.has(notice.alertId)) continue;
      if (notice.message) this.options.forward?.(notice.message);
      const done = this.show(notice.desktop)
        .then(() => this.mark(notice.alertId))
        .finally(() => this.underWay.delete(notice.alertId));
      this.underWay.set(notice.alertId, done);
    }
  }

  private async show(desktop: Notice['desktop']): Promise<void> {
    const { notify, log, onResult } = this.options;
    if (!notify) return;
    if (typeof desktop === 'string') {
      log(desktop);
      return;
    }
    try {
      await notify(desktop());
      onResult(true);
    } catch (error) {
      // the event and its alert are committed already; a missing daemon costs only the popup
      log(`desktop notification failed: ${error instanceof Error ? error.message : String(error)}`);
      onResult(false);
    }
  }

  private async mark(alertId: number): Promise<void> {
    if (this.closed) return;
    const { cache, write, log } = this.options;
    const at = new Date().toISOString();
    try {
      // a retry that comes after close() would find the cache closed
      const marked = () => !this.closed && cache.alerts.markNotified(alertId, at);
      await writeWhenFree(write, marked, Date.now() + MARK_DEADLINE_MS);
    } catch (error) {
      log(`could not record an alert's notification: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}

/** A kill alert as the notify command receives it: the stored row's fields (the message as kill-alert.ts writes it). */
function killMessage(id: number, pickId: string, createdAt: string, signal: KillSignal): AlertMessage {
  return {
    id,
    kind: 'kill',
    severity: 'high',
    city_id: signal.market.city,
    ref: pickId,
    created_at: createdAt,
    message: killAlertMessage(signal),
  };
}
