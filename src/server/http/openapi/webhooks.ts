import Type, { type TSchema } from 'typebox';
import { DeliveryHeaders, EVENT_TYPES, type EventType, eventSchema, TestEvent } from '../../../contract/events.js';
import { LIMITS } from '../../../contract/limits.js';

/** What each event tells the receiver (docs/interface.md, the events). Keyed by the contract's types: a new one cannot go undescribed. */
const MEANING: Record<EventType, string> = {
  'insurance.pick.created': 'A primary pick opened: legs A and B around the forecast maximum.',
  'insurance.addon.created':
    'A hedge leg (C) added to an open primary pick: `trade.trade_kind` is `addon` and `trade.parent_pick_id` the primary.',
  'insurance.pick.killed':
    'Exit the position at market: `kill` is set, `legs` echoes the original legs and `trade.pick_id` is the primary.',
  'edge.trade.entered': 'The edge engine entered a YES or NO position on a bucket (`trade.operation` `BUY`).',
  'edge.trade.exited': 'The edge engine exited (`SELL`) or settled (`SETTLE`) a position.',
  'webhook.test':
    'A test event, queued from the webhooks page or by `svc-monitor server webhooks test ID`: it carries a `message`.',
};

const every = (delaysMs: readonly number[]) =>
  delaysMs.map((ms) => (ms >= 3_600_000 ? `${ms / 3_600_000} h` : `${ms / 60_000} min`)).join(', ');

/**
 * How a receiver knows a delivery is the service's (src/domain/signature.ts signs, the dispatcher sends), in the
 * words every webhook of the document carries. The replay window is the monitor's listener's (src/receiver/replay.ts):
 * the service signs no time, so the age is judged from the signed body.
 */
const SIGNATURE_SCHEME =
  '`X-Svc-Signature` is `sha256=` followed by the HMAC-SHA256 of the exact bytes of the request body, keyed with ' +
  "the webhook's secret (shown once, when the webhook is added), as 64 lower-case hex digits. Verify it " +
  'over the raw body before parsing (re-serialised JSON differs), with a timing-safe comparison, and refuse a ' +
  'mismatch. No timestamp is signed and no timestamp header is sent: a captured delivery verifies forever, so judge ' +
  "its age from the signed body. svc-monitor's own listener refuses (409) a delivery whose `created_at` (an edge " +
  'event: `trade.executed_at`) is more than ' +
  `${LIMITS.webhookReplayWindowMs / 3_600_000} h older than the service's clock, past the last retry. A retry ` +
  'keeps `X-Svc-Event-Id`, has a new `X-Svc-Delivery`, differs in its body only by `attempt` (edge events carry ' +
  'none), and is signed anew: de-duplicate on the event id.';

const DELIVERY =
  `Answer 2xx within ${LIMITS.webhookTimeoutMs / 1000} s. Any other status, a redirect (never followed) or no ` +
  `answer is a failure, retried after ${every(LIMITS.webhookRetryDelaysMs)}; the ` +
  `${LIMITS.webhookDisableAfterFailures}th consecutive failure disables the webhook.`;

/** The request headers of a delivery as the document names them; the schemas are the contract's (DeliveryHeaders). */
const HEADERS: Record<keyof typeof DeliveryHeaders.properties, { name: string; description: string }> = {
  'x-svc-event': { name: 'X-Svc-Event', description: "The event type, the same as the body's `event_type`." },
  'x-svc-event-id': {
    name: 'X-Svc-Event-Id',
    description:
      "The event's UUID, the same on every retry: the idempotency key (the body's `event_id` where it has one).",
  },
  'x-svc-signature': { name: 'X-Svc-Signature', description: SIGNATURE_SCHEME },
  'x-svc-delivery': { name: 'X-Svc-Delivery', description: 'A UUID of this attempt; a retry has a new one.' },
  'user-agent': { name: 'User-Agent', description: 'Always `Svc-Webhook/1`.' },
};

/** The body of one event type: its family's schema with `event_type` that type alone. */
function bodyOf(type: EventType): TSchema {
  const family = eventSchema(type);
  return family === TestEvent ? family : Type.Object({ ...family.properties, event_type: Type.Literal(type) });
}

function headersOf(type: EventType) {
  return Object.entries(HEADERS).map(([key, { name, description }]) => ({
    in: 'header',
    name,
    required: true,
    description,
    schema: key === 'x-svc-event' ? Type.Literal(type) : DeliveryHeaders.properties[key as keyof typeof HEADERS],
  }));
}

/**
 * The document's `webhooks` (OpenAPI 3.1): one POST a receiver gets per event type of the contract, with its
 * headers, its body schema and what its answer means. @fastify/swagger passes `openapi.webhooks` through as given.
 */
export function webhooksSection() {
  return Object.fromEntries(
    EVENT_TYPES.map((type) => [
      type,
      {
        post: {
          operationId: `event-${type}`,
          summary: type,
          description: `${MEANING[type]}\n\n${SIGNATURE_SCHEME}`,
          parameters: headersOf(type),
          requestBody: { required: true, content: { 'application/json': { schema: bodyOf(type) } } },
          responses: { '2XX': { description: DELIVERY } },
        },
      },
    ]),
  );
}
