import notifier from 'node-notifier';
import { type KillSignal, killSummary } from '../domain/kill-signal.js';
import { withoutControls } from '../domain/without-controls.js';

export interface DesktopNotification {
  title: string;
  message: string;
  /** notify-send's urgency; critical (stays until seen) unless said otherwise. */
  urgency?: 'normal' | 'critical';
}

/** Shows a notification; rejects when it could not (no daemon, no notify-send): the caller logs and goes on. */
export type Notify = (notification: DesktopNotification) => Promise<void>;

// the text comes from a webhook body: inert on the command line, and a runaway reason cannot flood the desktop
const clean = (text: string, max: number) => withoutControls(text).slice(0, max);

/**
 * The kill signal as a trader reads it at a glance: the title says where, the body starts with what to do
 * (SELL AT MARKET when the signal says so), then the legs to sell and the reason.
 */
export function killNotification(signal: KillSignal): DesktopNotification {
  const { title, text } = killSummary(signal);
  return { title: clean(title, 120), message: clean(text, 400) };
}

/** The words a notification title gives each trader alert kind. */
const TITLE_OF: Record<string, string> = {
  'dying-bucket': 'DYING BUCKET',
  edge: 'EDGE',
  breakthrough: 'BREAKTHROUGH',
};

/**
 * A trader alert (alerts/market-alerts.ts) as a notification: what and where in the title, the alert's own text as
 * the body. A dying bucket is money lost and stays until seen; an edge or a breakthrough is news.
 */
export function alertNotification(alert: {
  kind: string;
  city_id: string | null;
  message: string;
}): DesktopNotification {
  const what = TITLE_OF[alert.kind] ?? alert.kind.toUpperCase();
  return {
    title: clean(`${what}${alert.city_id ? ` ${alert.city_id}` : ''}`, 120),
    message: clean(alert.message, 400),
    urgency: alert.kind === 'dying-bucket' ? 'critical' : 'normal',
  };
}

/** Trader alerts one pass shows one by one; the rest of a burst (a first sync, a market gapping) share one. */
export const SHOWN_ONE_BY_ONE = 3;

/**
 * The rest of a burst of trader alerts as one notification: how many of each kind, and where. Each is in the
 * Alerts pane (and went to the notify command) all the same.
 */
export function moreAlertsNotification(
  alerts: readonly { kind: string; city_id: string | null }[],
): DesktopNotification {
  const byKind = new Map<string, number>();
  for (const a of alerts) {
    const what = TITLE_OF[a.kind] ?? a.kind.toUpperCase();
    byKind.set(what, (byKind.get(what) ?? 0) + 1);
  }
  const kinds = [...byKind].map(([what, n]) => `${n} ${what}`).join(', ');
  const cities = [...new Set(alerts.map((a) => a.city_id).filter((c) => c !== null))].sort();
  const where = cities.length > 0 ? ` (${cities.join(', ')})` : '';
  return {
    title: `svc-monitor: ${alerts.length} more alerts`,
    message: clean(`${kinds}${where}: see the Alerts pane`, 400),
    urgency: alerts.some((a) => a.kind === 'dying-bucket') ? 'critical' : 'normal',
  };
}

/** node-notifier's platform notifier (notify-send on Linux), critical urgency unless asked otherwise. */
export const desktopNotify: Notify = ({ urgency = 'critical', ...notification }) =>
  new Promise((resolve, reject) => {
    // notify-send's own options ride along; the other platforms' notifiers ignore them
    const options = { ...notification, urgency, 'app-name': 'svc-monitor', wait: false };
    notifier.notify(options as notifier.Notification, (error) => (error ? reject(error) : resolve()));
  });
