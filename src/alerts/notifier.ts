import notifier from 'node-notifier';
import { type KillSignal, killSummary } from '../domain/kill-signal.js';
import { withoutControls } from '../domain/text.js';

export interface DesktopNotification {
  title: string;
  message: string;
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

/** node-notifier's platform notifier (notify-send on Linux), critical urgency so it stays until seen. */
export const desktopNotify: Notify = (notification) =>
  new Promise((resolve, reject) => {
    // notify-send's own options ride along; the other platforms' notifiers ignore them
    const options = { ...notification, urgency: 'critical', 'app-name': 'svc-monitor', wait: false };
    notifier.notify(options as notifier.Notification, (error) => (error ? reject(error) : resolve()));
  });
