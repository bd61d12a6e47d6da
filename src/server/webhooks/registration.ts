import { randomUUID } from 'node:crypto';
import { EVENT_TYPES, type EventType, type TestEvent } from '../../contract/events.js';
import { isoUtc } from '../../domain/city-time.js';
import { contractProblem } from '../store/event-contract.js';
import type { WebhookStore } from '../store/webhooks.js';
import { checkWebhookUrl, type Resolver } from './address-guard.js';

/**
 * What `server webhooks add|test` and the webhooks page both do, in one place: the event types a registration may
 * name, the address rules (address-guard.ts) and the `webhook.test` event.
 */

export class UnknownEventTypes extends Error {
  override name = 'UnknownEventTypes';
}

/** The event types named, each known; none named means every type (null). Throws UnknownEventTypes. */
export function parseEventTypes(names: readonly string[] | undefined): EventType[] | null {
  if (names === undefined || names.length === 0) return null;
  const unknown = names.filter((t) => !(EVENT_TYPES as readonly string[]).includes(t));
  if (unknown.length > 0)
    throw new UnknownEventTypes(`unknown event type ${unknown.join(', ')}; known: ${EVENT_TYPES.join(', ')}`);
  return [...new Set(names)] as EventType[];
}

export interface Registration {
  url: string;
  events: EventType[] | null;
  /** `--allow-private` of `webhooks add`: this one webhook may target a private address. */
  allowPrivate: boolean;
  /** The data dir's server runs with `--allow-private-webhooks`. */
  serverAllowsPrivate: boolean;
  resolve?: Resolver;
}

/** Checks the URL against the address rules (throws AddressRefused), then stores the webhook; its secret is new. */
export async function registerWebhook(store: WebhookStore, r: Registration): Promise<{ id: string; secret: string }> {
  await checkWebhookUrl(r.url, { allowPrivate: r.allowPrivate || r.serverAllowsPrivate, resolve: r.resolve });
  return store.add(r.url, r.events, r.allowPrivate);
}

/** Queues a `webhook.test` event for one webhook, due at once; false when there is no such webhook. */
export function queueTestEvent(store: WebhookStore, id: string): { queued: false } | { queued: true; eventId: string } {
  if (store.get(id) === undefined) return { queued: false };
  const event: TestEvent = {
    event_id: randomUUID(),
    event_type: 'webhook.test',
    event_version: 1,
    created_at: isoUtc(Date.now()),
    attempt: 1,
    message: `test event for webhook ${id}`,
  };
  const problem = contractProblem('webhook.test', event);
  if (problem) throw new Error(`webhook.test payload breaks the contract: ${problem}`);
  store.enqueue(id, event.event_id, event.event_type, event);
  return { queued: true, eventId: event.event_id };
}
