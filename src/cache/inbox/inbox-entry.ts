import type { EventType, WebhookEvent } from '../../contract/events.js';
import type { KillSignal } from '../../domain/kill-signal.js';
import type { NewAlert } from '../alerts.js';

/** An accepted webhook delivery: verified, parsed and validated by the receiver, not yet stored. */
export interface InboxEntry {
  /** X-Svc-Event-Id. */
  eventId: string;
  /** The de-duplication key beside the event id, from the signed body, or null (receiver/identity.ts). */
  replayKey: string | null;
  eventType: EventType;
  deliveryId: string;
  receivedAt: string;
  /** The body exactly as received. */
  body: string;
  event: WebhookEvent;
}

export type IntakeOutcome = 'stored' | 'duplicate';

/** A signed request that could not be accepted, kept with its raw bytes for inspection. */
export interface RejectedWebhook {
  reason: string;
  eventType?: string;
  eventId?: string;
  deliveryId?: string;
  receivedAt: string;
  body: Buffer;
}

/**
 * A pick that a stored event leaves killed: by its own kill, or (an addon that arrived after its parent's kill)
 * born killed. What the alert rules are told of it.
 */
export interface StoredKill {
  pickId: string;
  /** What the trader must sell: the kill's legs with its addons', or the addon's legs under its parent's kill. */
  signal: KillSignal;
  /** When the event that told of the kill arrived. */
  receivedAt: string;
  /** A kill alert about this pick was raised already. */
  alerted: boolean;
}

/**
 * The alert rules the inbox applies to what it stores (they live in alerts/; the receiver passes them in). An
 * alert a rule returns is stored in the event's own transaction.
 */
export interface InboxAlertRules {
  kill(kill: StoredKill): NewAlert | undefined;
}
