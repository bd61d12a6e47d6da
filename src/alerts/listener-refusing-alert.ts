import type { ListenerAlertRules, NewAlert, RefusalRun } from '../cache/index.js';
import type { DesktopNotification } from './notifier.js';

/** So many signature refusals ... */
export const REFUSALS_TO_ALERT = 3;
/** ... within this long (from the first of them to the last), none verified between them, raise the alert. */
export const REFUSAL_WINDOW_MS = 10 * 60_000;

/**
 * DESIGN 4 "a listener that refuses what it is sent": three deliveries refused for their signature within 10
 * minutes, with none verified between them, raise one high alert: a listener whose secret does not match the
 * service's drops every kill, and the service disables the webhook after ten failures. One a run: not again while
 * no delivery verifies (`run.alerted`); a verified one ends the run, and the next three raise a new alert.
 *
 * `run` holds only the refusals since the last verified delivery (cache/inbox/listener-health.ts). The alert is
 * stamped with the refusal that made it true (DESIGN 4 "alerts in time"), and names how many were refused in the 10
 * minutes up to it and the event type of that last one.
 */
export function listenerRefusingAlert(run: RefusalRun): NewAlert | undefined {
  if (run.alerted) return undefined;
  const r = run.refusals;
  for (let i = REFUSALS_TO_ALERT - 1; i < r.length; i++) {
    const last = r[i] as RefusalRun['refusals'][number];
    const first = r[i - (REFUSALS_TO_ALERT - 1)] as RefusalRun['refusals'][number];
    if (last.receivedMs - first.receivedMs > REFUSAL_WINDOW_MS) continue;
    const count = r.slice(0, i + 1).filter((x) => last.receivedMs - x.receivedMs <= REFUSAL_WINDOW_MS).length;
    const type = last.eventType ?? 'no X-Svc-Event header';
    return {
      severity: 'high',
      kind: 'listener-refusing',
      created_at: last.receivedAt,
      message:
        `webhook listener refusing: ${count} deliveries refused for their signature within 10 minutes ` +
        `(the last ${type}); the configured webhook secret does not match the service's, kills are not arriving`,
    };
  }
  return undefined;
}

/** The rules the cache applies when the listener stores refusals (cache.inbox.refuse). */
export const LISTENER_ALERT_RULES: ListenerAlertRules = { refusing: listenerRefusingAlert };

/** The refusing alert as a desktop notification: it stays until seen, as a kill does. */
export function refusingNotification(alert: Pick<NewAlert, 'message'>): DesktopNotification {
  return {
    title: 'Webhook listener refusing',
    message: alert.message.replace(/^webhook listener refusing: /, '').slice(0, 400),
  };
}
