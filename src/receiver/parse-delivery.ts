import type { IncomingHttpHeaders } from 'node:http';
import type { TSchema } from 'typebox';
import { Compile } from 'typebox/compile';
import type { InboxEntry } from '../cache/index.js';
import {
  EdgeEvent,
  EVENT_TYPES,
  type EventType,
  eventSchema,
  InsuranceEvent,
  TestEvent,
  type WebhookEvent,
} from '../contract/events.js';
import { isValidZone } from '../domain/city-time.js';
import { isEdgeEvent, replayKey } from './identity.js';

export type ParsedDelivery = { ok: true; entry: InboxEntry } | { ok: false; reason: string };

const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
const validators = new Map<TSchema, ReturnType<typeof Compile<TSchema>>>(
  [InsuranceEvent, EdgeEvent, TestEvent].map((schema) => [schema, Compile(schema)]),
);
// ignoreBOM: a BOM stays in the text (and fails JSON.parse) rather than being dropped from what is stored
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

function schemaOf(type: EventType): ReturnType<typeof Compile<TSchema>> {
  return validators.get(eventSchema(type)) as ReturnType<typeof Compile<TSchema>>;
}

const header = (headers: IncomingHttpHeaders, name: string): string | undefined => {
  const value = headers[name];
  return typeof value === 'string' ? value : undefined;
};

/**
 * A delivery whose signature already checked out, turned into an inbox entry: headers (spec 6.2) and body (spec
 * 6.4, 6.5, DESIGN 4's test payload) validated against the contract, and the header agreeing with the body on the
 * event type and, where the body carries one, the event id. Any failure is a reason naming the field.
 */
export function parseDelivery(headers: IncomingHttpHeaders, bytes: Buffer, receivedAt: string): ParsedDelivery {
  const eventType = header(headers, 'x-svc-event');
  const eventId = header(headers, 'x-svc-event-id');
  const deliveryId = header(headers, 'x-svc-delivery');
  if (!eventType || !(EVENT_TYPES as readonly string[]).includes(eventType))
    return { ok: false, reason: `header X-Svc-Event must be one of ${EVENT_TYPES.join(', ')}` };
  if (!eventId || !UUID.test(eventId)) return { ok: false, reason: 'header X-Svc-Event-Id must be a UUID' };
  if (!deliveryId) return { ok: false, reason: 'header X-Svc-Delivery is missing' };
  let body: string;
  let value: unknown;
  try {
    body = utf8.decode(bytes);
    value = JSON.parse(body);
  } catch {
    return { ok: false, reason: 'body is not valid UTF-8 JSON' };
  }
  const validator = schemaOf(eventType as EventType);
  if (!validator.Check(value)) {
    const [first] = validator.Errors(value);
    return { ok: false, reason: `body field ${first?.instancePath || '/'} ${first?.message ?? 'does not match'}` };
  }
  const event = value as WebhookEvent;
  if (event.event_type !== eventType)
    return { ok: false, reason: `header X-Svc-Event ${eventType} differs from the body's ${event.event_type}` };
  const edge = isEdgeEvent(event);
  const own = edge ? undefined : (event as InsuranceEvent | TestEvent);
  if (own && own.event_id.toLowerCase() !== eventId.toLowerCase())
    return { ok: false, reason: "header X-Svc-Event-Id differs from the body's event_id" };
  if (edge) {
    const exit = event.event_type === 'edge.trade.exited';
    const operation = (event as EdgeEvent).trade.operation;
    if (exit === (operation === 'BUY'))
      return { ok: false, reason: `body field /trade/operation ${operation} does not fit ${event.event_type}` };
  }
  // a zone the tz database does not know would make every city-local time on screen invalid
  if (event.event_type.startsWith('insurance.') && !isValidZone((event as InsuranceEvent).market.market_tz))
    return { ok: false, reason: 'body field /market/market_tz is not an IANA time zone' };
  // the pattern lets through instants that do not exist (hour 25); the projections order by them
  const when = own ? own.created_at : (event as EdgeEvent).trade.executed_at;
  if (Number.isNaN(Date.parse(when)))
    return { ok: false, reason: `body field ${edge ? '/trade/executed_at' : '/created_at'} is not a real instant` };
  return {
    ok: true,
    entry: {
      eventId: eventId.toLowerCase(),
      replayKey: replayKey(event),
      eventType: eventType as EventType,
      deliveryId,
      receivedAt,
      body,
      event,
    },
  };
}
