import type { EdgeEvent, WebhookEvent } from '../contract/events.js';

export const isEdgeEvent = (event: WebhookEvent): event is EdgeEvent =>
  event.event_type === 'edge.trade.entered' || event.event_type === 'edge.trade.exited';

/**
 * The de-duplication key an event needs beside its `X-Svc-Event-Id`, built only from what the signature covers
 * (the body), so a captured body replayed under a fresh header id is still recognised. Insurance and test events
 * need none: their body's `event_id` is the key, and the header must repeat it (parse-delivery.ts). Edge events,
 * whose contract has no id, are keyed by the engine's trade id and operation (a trade is entered once and exited
 * once).
 */
export function replayKey(event: WebhookEvent): string | null {
  // by the type, never by which keys the body happens to carry: an edge body with an extra `event_id` is still edge
  return isEdgeEvent(event) ? `edge:${event.trade.engine_trade_id}:${event.trade.operation}` : null;
}
