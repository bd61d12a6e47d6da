import notifier from 'node-notifier';
import { isTraderAlertKind, type TraderAlertKind } from '../contract/alert-kinds.js';
import type { CityName } from '../domain/city-names.js';
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

/** `Kill · Munich`: what happened, then where, so a glance at the corner of the screen says both. */
const titled = (what: string, cityId: string | null, name: CityName) =>
  clean(cityId === null ? what : `${what} · ${name(cityId)}`, 120);

/**
 * The kill signal as a trader reads it at a glance: the title says what and where (`Kill · Chicago`), the body
 * starts with what to do (SELL AT MARKET when the signal says so), then the legs to sell, the reason and the day.
 */
export function killNotification(signal: KillSignal, name: CityName): DesktopNotification {
  const { text } = killSummary(signal);
  return {
    title: titled('Kill', signal.market.city, name),
    message: clean(`${text} (${signal.market.market_date})`, 400),
  };
}

/** The words a notification gives each trader alert kind. */
const WHAT = {
  'dying-bucket': 'Dying bucket',
  edge: 'Edge',
  breakthrough: 'Breakthrough',
} satisfies Record<TraderAlertKind, string>;
const whatOf = (kind: string): string => (isTraderAlertKind(kind) ? WHAT[kind] : kind);

/**
 * A stored trader alert's message (alerts/market-alerts.ts) is `CITY DATE: what`; an edge's what is `edge +8.7
 * points on YES 24°C at 0.41 on mkta (model 49.6%; min-0.10 mkta record: n < 10)`. Read back here into the notification's parts; a message of
 * another shape is shown whole under the kind.
 */
const DAY_PREFIX = /^(\S+) (\d{4}-\d{2}-\d{2}): ([\s\S]*)$/;
const EDGE = /^edge ([+-]\d+(?:\.\d+)?) points on (.+) \(model (\d+(?:\.\d+)?%)(?:; ([^()]*))?\)$/;

/**
 * A trader alert as a notification: the title says what happened and the city's name (`Edge +8.7 pts · Munich`,
 * `Dying bucket · Munich`), the body the bucket, the price and the model's probability (`YES 24°C at 0.41 on mkta ·
 * model 49.6% · 2026-11-26`), or for the other kinds what happened to the day. A dying bucket is money lost and
 * stays until seen; an edge or a breakthrough is news.
 */
export function alertNotification(
  alert: { kind: string; city_id: string | null; message: string },
  name: CityName,
): DesktopNotification {
  const urgency = alert.kind === 'dying-bucket' ? 'critical' : 'normal';
  const day = DAY_PREFIX.exec(alert.message);
  const ofCity = day !== null && day[1] === alert.city_id;
  const what = ofCity ? (day[3] as string) : alert.message;
  const date = ofCity ? ` · ${day[2]}` : '';
  const edge = alert.kind === 'edge' ? EDGE.exec(what) : null;
  if (edge) {
    return {
      title: titled(`Edge ${edge[1]} pts`, alert.city_id, name),
      // the board's record of edges like it, when the message has it (`0.10-0.20 mkta: 32 pos, 28% won, ROI -40%`)
      message: clean(`${edge[2]} · model ${edge[3]}${edge[4] ? ` · ${edge[4]}` : ''}${date}`, 400),
      urgency,
    };
  }
  return { title: titled(whatOf(alert.kind), alert.city_id, name), message: clean(`${what}${date}`, 400), urgency };
}

/** Trader alerts one pass shows one by one; the rest of a burst (a first sync, a market gapping) share one. */
export const SHOWN_ONE_BY_ONE = 3;

/**
 * The rest of a burst of trader alerts as one notification: how many of each kind, and where (the cities' names).
 * Each is in the Alerts pane (and went to the notify command) all the same.
 */
export function moreAlertsNotification(
  alerts: readonly { kind: string; city_id: string | null }[],
  name: CityName,
): DesktopNotification {
  const byKind = new Map<string, number>();
  for (const a of alerts) byKind.set(whatOf(a.kind), (byKind.get(whatOf(a.kind)) ?? 0) + 1);
  const kinds = [...byKind].map(([what, n]) => `${n} ${what.toLowerCase()}`).join(', ');
  const cities = [...new Set(alerts.map((a) => a.city_id).filter((c) => c !== null))].map(name).sort();
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
