import type { WebhookEvent } from '../contract/events.js';

/**
 * The de-duplication key of an event, built only from what the signature covers (the body), so a captured body
 * replayed under a fresh `X-Svc-Event-Id` is still recognised: insurance and test events by their `event_id`
 * (which the header must repeat); edge events, whose body has no id, by the engine's trade id and operation (a
 * trade is entered once and exited once). The header id is kept unique beside it, so a retry is caught either way.
 */
export function eventIdentity(event: WebhookEvent): string {
  if ('event_id' in event) return `event:${event.event_id.toLowerCase()}`;
  return `edge:${event.trade.engine_trade_id}:${event.trade.operation}`;
}
