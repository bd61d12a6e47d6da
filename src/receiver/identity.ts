import type { EdgeEvent, InsuranceEvent, TestEvent, WebhookEvent } from '../contract/events.js';

export const isEdgeEvent = (event: WebhookEvent): event is EdgeEvent =>
  event.event_type === 'edge.trade.entered' || event.event_type === 'edge.trade.exited';

/**
 * The de-duplication key of an event, built only from what the signature covers (the body), so a captured body
 * replayed under a fresh `X-Svc-Event-Id` is still recognised: insurance and test events by their `event_id`
 * (which the header must repeat); edge events, whose contract has no id, by the engine's trade id and operation (a
 * trade is entered once and exited once). The header id is kept unique beside it, so a retry is caught either way.
 */
export function eventIdentity(event: WebhookEvent): string {
  // by the type, never by which keys the body happens to carry: an edge body with an extra `event_id` is still edge
  if (isEdgeEvent(event)) return `edge:${event.trade.engine_trade_id}:${event.trade.operation}`;
  return `event:${(event as InsuranceEvent | TestEvent).event_id.toLowerCase()}`;
}
