import Type, { type Static } from 'typebox';
import { LocalDate, MarketUnit, Nullable, Side, Timestamp } from './common.js';
import { EDGE_EVENT_TYPES, type EventType, INSURANCE_EVENT_TYPES } from './names.js';

export { EDGE_EVENT_TYPES, EVENT_TYPES, type EventType, INSURANCE_EVENT_TYPES } from './names.js';

const InsuranceEventType = Type.Union([
  Type.Literal('insurance.pick.created'),
  Type.Literal('insurance.addon.created'),
  Type.Literal('insurance.pick.killed'),
]);
const EdgeEventType = Type.Union([Type.Literal('edge.trade.entered'), Type.Literal('edge.trade.exited')]);
const EventTypeSchema = Type.Union([InsuranceEventType, EdgeEventType, Type.Literal('webhook.test')]);

const Uuid = Type.String({ pattern: '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$' });

export const InsuranceLeg = Type.Object({
  leg: Type.Union([Type.Literal('A'), Type.Literal('B'), Type.Literal('C')]),
  bucket_slug: Type.String(),
  bucket_label: Type.String(),
  bucket_low: Type.Number(),
  bucket_high: Type.Number(),
  token_id_yes: Type.String(),
  snapshot_price: Type.Number({ minimum: 0, maximum: 1 }),
  stake_usd: Type.Number({ minimum: 0 }),
  shares: Type.Number({ minimum: 0 }),
  max_slippage_bps: Type.Integer({ minimum: 0 }),
  side: Type.Literal('YES'),
});
export type InsuranceLeg = Static<typeof InsuranceLeg>;

export const InsuranceEvent = Type.Object({
  event_id: Uuid,
  event_type: InsuranceEventType,
  event_version: Type.Literal(1),
  created_at: Timestamp,
  attempt: Type.Integer({ minimum: 1 }),
  market: Type.Object({
    city: Type.String(),
    market_date: LocalDate,
    market_tz: Type.String(),
    bucket_unit: MarketUnit,
    event_slug: Type.String(),
    mkta_url: Type.String(),
  }),
  trade: Type.Object({
    pick_id: Uuid,
    trade_seq: Type.Integer({ minimum: 1 }),
    trade_kind: Type.Union([Type.Literal('primary'), Type.Literal('addon')]),
    parent_pick_id: Nullable(Uuid),
    total_cost_usd: Type.Number({ minimum: 0 }),
  }),
  legs: Type.Array(InsuranceLeg, { minItems: 1 }),
  kill: Nullable(Type.Object({ sell_at_market: Type.Boolean(), reason: Type.String() })),
});
export type InsuranceEvent = Static<typeof InsuranceEvent>;

export const EdgeEvent = Type.Object({
  event_type: EdgeEventType,
  market: Type.Object({
    city: Type.String(),
    market_date: LocalDate,
    event_slug: Type.String(),
    mkta_url: Type.String(),
  }),
  trade: Type.Object({
    engine_trade_id: Type.Integer({ minimum: 1 }),
    operation: Type.Union([Type.Literal('BUY'), Type.Literal('SELL'), Type.Literal('SETTLE')]),
    side: Side,
    bucket_label: Type.String(),
    price: Type.Number({ minimum: 0, maximum: 1 }),
    qty: Type.Number({ minimum: 0 }),
    total_usd: Type.Number(),
    reason: Type.String(),
    executed_at: Timestamp,
    max_slippage_bps: Type.Integer({ minimum: 0 }),
  }),
});
export type EdgeEvent = Static<typeof EdgeEvent>;

/** DESIGN.md section 4 decides the `webhook.test` payload. */
export const TestEvent = Type.Object({
  event_id: Uuid,
  event_type: Type.Literal('webhook.test'),
  event_version: Type.Literal(1),
  created_at: Timestamp,
  attempt: Type.Integer({ minimum: 1 }),
  message: Type.String(),
});
export type TestEvent = Static<typeof TestEvent>;

export type WebhookEvent = InsuranceEvent | EdgeEvent | TestEvent;

/** The schema a body of `type` follows: the insurance payload, the edge one or the test one. */
export function eventSchema(type: EventType): typeof InsuranceEvent | typeof EdgeEvent | typeof TestEvent {
  if ((INSURANCE_EVENT_TYPES as readonly string[]).includes(type)) return InsuranceEvent;
  if ((EDGE_EVENT_TYPES as readonly string[]).includes(type)) return EdgeEvent;
  return TestEvent;
}

/** Request headers of every delivery (spec 6.2), lower-cased as node:http presents them. */
export const DeliveryHeaders = Type.Object({
  'x-svc-event': EventTypeSchema,
  'x-svc-event-id': Uuid,
  'x-svc-signature': Type.String({ pattern: '^sha256=[0-9a-f]{64}$' }),
  'x-svc-delivery': Type.String({ minLength: 1 }),
  'user-agent': Type.Literal('Svc-Webhook/1'),
});
export type DeliveryHeaders = Static<typeof DeliveryHeaders>;

export const USER_AGENT = 'Svc-Webhook/1';
