import type { NewAlert, StoredKill } from '../cache/index.js';
import { killSummary } from '../domain/kill-signal.js';

/**
 * A killed pick raises one high alert, its message what the trader must sell: the kill's legs with those of the
 * pick's addons (a hedge leg loses with the legs it hedged), or, for an addon that arrived after its parent's kill,
 * the addon's own legs. The inbox asks this rule for every pick a stored event leaves killed, and stores what it
 * returns in the event's transaction.
 */
export function killAlert(kill: StoredKill): NewAlert | undefined {
  if (kill.alerted) return undefined;
  const { title, text } = killSummary(kill.signal);
  return {
    severity: 'high',
    kind: 'kill',
    ref: kill.pickId,
    city_id: kill.signal.market.city,
    created_at: kill.receivedAt,
    message: `${title}: ${text}`,
  };
}

/** The rules the webhook inbox applies to what it stores (cache.inbox.intake). */
export const INBOX_ALERT_RULES = { kill: killAlert };
