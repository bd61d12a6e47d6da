import type { ListenerAlertRules, NewAlert, RefusalRun } from '../cache/index.js';
import type { DesktopNotification } from './notifier.js';

/** So many refusals of one cause (signature, replay) ... */
export const REFUSALS_TO_ALERT = 3;
/** ... within this long (from the first of them to the last), none verified between them, raise the alert. */
export const REFUSAL_WINDOW_MS = 10 * 60_000;

type Refusal = RefusalRun['refusals'][number];

/**
 * DESIGN 4 "a listener that refuses what it is sent": three deliveries refused for the same cause within 10
 * minutes, with none verified between them, raise one high alert. For their signature: the listener's secret does
 * not match the service's and it drops every kill. As replays: the listener judges `created_at` on a clock more than
 * 24 h ahead of the service's (no sync has run and the reference service resumed its world where it stopped, or a
 * stale kept offset), so it answers every delivery 409. Either way the service disables the webhook after ten
 * failures. One a run: not again while no delivery verifies (`run.alerted`); a verified one ends the run, and the
 * next three raise a new alert.
 *
 * `run` holds only the refusals since the last verified delivery (cache/inbox/listener-health.ts). The alert is
 * stamped with the refusal that made it true (DESIGN 4 "alerts in time"), and names how many of its cause were
 * refused in the 10 minutes up to it.
 */
export function listenerRefusingAlert(run: RefusalRun): NewAlert | undefined {
  if (run.alerted) return undefined;
  const signature = firstThree(run.refusals.filter((x) => x.cause === 'signature'));
  const replay = firstThree(run.refusals.filter((x) => x.cause === 'replay'));
  // both runs made true in one write: the alert of the one made true first
  if (signature && (!replay || signature.last.receivedMs <= replay.last.receivedMs)) {
    const type = signature.last.eventType ?? 'no X-Svc-Event header';
    return refusing(
      signature.last,
      `${signature.count} deliveries refused for their signature within 10 minutes (the last ${type}); ` +
        "the configured webhook secret does not match the service's, kills are not arriving",
    );
  }
  if (replay)
    return refusing(
      replay.last,
      `${replay.count} deliveries refused as replays: their created_at is more than 24 h older than the clock ` +
        "this listener knows (the service's, or this machine's when no sync has run); run `svc-monitor sync` " +
        "against the service, or check the service's clock",
    );
  return undefined;
}

/** The first refusal of `r` (one cause, oldest first) with two more in the 10 minutes before it, and their count. */
function firstThree(r: readonly Refusal[]): { last: Refusal; count: number } | undefined {
  for (let i = REFUSALS_TO_ALERT - 1; i < r.length; i++) {
    const last = r[i] as Refusal;
    const first = r[i - (REFUSALS_TO_ALERT - 1)] as Refusal;
    if (last.receivedMs - first.receivedMs > REFUSAL_WINDOW_MS) continue;
    return { last, count: r.slice(0, i + 1).filter((x) => last.receivedMs - x.receivedMs <= REFUSAL_WINDOW_MS).length };
  }
  return undefined;
}

const refusing = (last: Refusal, why: string): NewAlert => ({
  severity: 'high',
  kind: 'listener-refusing',
  created_at: last.receivedAt,
  message: `webhook listener refusing: ${why}`,
});

/** The rules the cache applies when the listener stores refusals (cache.inbox.refuse). */
export const LISTENER_ALERT_RULES: ListenerAlertRules = { refusing: listenerRefusingAlert };

/** The refusing alert as a desktop notification: it stays until seen, as a kill does. */
export function refusingNotification(alert: Pick<NewAlert, 'message'>): DesktopNotification {
  return {
    title: 'Webhook listener refusing',
    message: alert.message.replace(/^webhook listener refusing: /, '').slice(0, 400),
  };
}
