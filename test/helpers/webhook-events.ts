import { randomUUID } from 'node:crypto';
import type { EdgeEvent, EventType, InsuranceEvent, InsuranceLeg, TestEvent } from '../../src/contract/events.js';
import { signBody } from '../../src/domain/signature.js';

/**
 * Webhook events as the reference service writes them (spec 6.4, 6.5, DESIGN 4's test payload), built by hand so a
 * receiver test controls every byte, and signed the way the dispatcher signs (HMAC-SHA256 of the exact body).
 */

export const PRIMARY_SECRET = 'whsec_primary-7fK2pQ9xL4mN8vR3tY6wZ1aB5cD0eG';
export const PREVIOUS_SECRET = 'whsec_previous-Hj3Kl8Mn2Pq7Rs1Tu6Vw0Xy4Za9Bc';
export const STRANGER_SECRET = 'whsec_stranger-Qw8Er3Ty7Ui2Op6As1Df5Gh0Jk4L';

export function leg(name: InsuranceLeg['leg'], low: number, over: Partial<InsuranceLeg> = {}): InsuranceLeg {
  return {
    leg: name,
    bucket_slug: `${low}-${low + 1}f`,
    bucket_label: `${low}-${low + 1}°F`,
    bucket_low: low,
    bucket_high: low + 1,
    token_id_yes: `7${String(low).padStart(6, '0')}123456789012345678901234`,
    snapshot_price: 0.25,
    stake_usd: 10,
    shares: 40,
    max_slippage_bps: 150,
    side: 'YES',
    ...over,
  };
}

export interface InsuranceOptions {
  eventId?: string;
  pickId?: string;
  parentPickId?: string | null;
  createdAt?: string;
  city?: string;
  marketDate?: string;
  legs?: InsuranceLeg[];
  reason?: string;
  tradeSeq?: number;
  attempt?: number;
}

export function insuranceEvent(type: InsuranceEvent['event_type'], o: InsuranceOptions = {}): InsuranceEvent {
  const addon = type === 'insurance.addon.created';
  const legs = o.legs ?? (addon ? [leg('C', 70)] : [leg('A', 64), leg('B', 66)]);
  return {
    event_id: o.eventId ?? randomUUID(),
    event_type: type,
    event_version: 1,
    created_at: o.createdAt ?? '2026-11-21T15:00:00Z',
    attempt: o.attempt ?? 1,
    market: {
      city: o.city ?? 'nyc',
      market_date: o.marketDate ?? '2026-11-21',
      market_tz: 'America/New_York',
      bucket_unit: 'F',
      event_slug: `highest-temperature-in-${o.city ?? 'nyc'}-on-november-21-2026`,
      mkta_url: `https://mkta.example/event/highest-temperature-in-${o.city ?? 'nyc'}`,
    },
    trade: {
      pick_id: o.pickId ?? randomUUID(),
      trade_seq: o.tradeSeq ?? 1,
      trade_kind: addon ? 'addon' : 'primary',
      parent_pick_id: o.parentPickId ?? null,
      total_cost_usd: Math.round(legs.reduce((sum, l) => sum + l.stake_usd, 0) * 100) / 100,
    },
    legs,
    kill:
      type === 'insurance.pick.killed'
        ? { sell_at_market: true, reason: o.reason ?? 'METAR high so far 68°F is above 67°F: every leg loses' }
        : null,
  };
}

export interface EdgeOptions {
  tradeId: number;
  operation?: EdgeEvent['trade']['operation'];
  executedAt?: string;
  city?: string;
  marketDate?: string;
  totalUsd?: number;
  reason?: string;
}

export function edgeEvent(type: EdgeEvent['event_type'], o: EdgeOptions): EdgeEvent {
  const entry = type === 'edge.trade.entered';
  return {
    event_type: type,
    market: {
      city: o.city ?? 'london',
      market_date: o.marketDate ?? '2026-11-21',
      event_slug: `highest-temperature-in-${o.city ?? 'london'}-on-november-21-2026`,
      mkta_url: `https://mkta.example/event/highest-temperature-in-${o.city ?? 'london'}`,
    },
    trade: {
      engine_trade_id: o.tradeId,
      operation: o.operation ?? (entry ? 'BUY' : 'SELL'),
      side: 'NO',
      bucket_label: '52-53°F',
      price: entry ? 0.62 : 0.71,
      qty: 16.13,
      total_usd: o.totalUsd ?? (entry ? 10 : 11.45),
      reason: o.reason ?? (entry ? 'edge 9.1 pts' : 'edge faded to 1.2 pts'),
      executed_at: o.executedAt ?? (entry ? '2026-11-21T09:00:00+00:00' : '2026-11-21T13:30:00+00:00'),
      max_slippage_bps: 100,
    },
  };
}

export function testEvent(o: { eventId?: string; message?: string; attempt?: number } = {}): TestEvent {
  return {
    event_id: o.eventId ?? randomUUID(),
    event_type: 'webhook.test',
    event_version: 1,
    created_at: '2026-11-21T12:00:00Z',
    attempt: o.attempt ?? 1,
    message: o.message ?? 'hello from the webhooks page',
  };
}

/** One delivery attempt: the exact body text and the headers the service would send with it. */
export interface Delivery {
  body: string;
  headers: Record<string, string>;
  /** X-Svc-Event-Id */
  eventId: string;
  eventType: string;
}

export interface SignOptions {
  /** X-Svc-Event-Id; default: the body's event_id, or a fresh UUID for edge events */
  eventId?: string;
  /** X-Svc-Event; default: the body's event_type */
  eventType?: string;
  deliveryId?: string;
  /** signature header as is (default: signBody(secret, body)) */
  signature?: string;
}

/** Signs `event` (serialised with JSON.stringify) or an exact body text with `secret`. */
export function signed(secret: string, event: object | string, o: SignOptions = {}): Delivery {
  const body = typeof event === 'string' ? event : JSON.stringify(event);
  const parsed = typeof event === 'string' ? safeParse(body) : (event as Record<string, unknown>);
  const eventId = o.eventId ?? (typeof parsed?.event_id === 'string' ? parsed.event_id : randomUUID());
  const eventType = o.eventType ?? (typeof parsed?.event_type === 'string' ? parsed.event_type : 'webhook.test');
  return {
    body,
    eventId,
    eventType,
    headers: {
      'content-type': 'application/json',
      'user-agent': 'Svc-Webhook/1',
      'x-svc-event': eventType,
      'x-svc-event-id': eventId,
      'x-svc-delivery': o.deliveryId ?? randomUUID(),
      'x-svc-signature': o.signature ?? signBody(secret, body),
    },
  };
}

function safeParse(text: string): Record<string, unknown> | undefined {
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

/** Every event type, one valid event each (edge ones with the given trade id). */
export function oneOfEach(tradeId: number): { type: EventType; event: object }[] {
  const pickId = randomUUID();
  return [
    { type: 'insurance.pick.created', event: insuranceEvent('insurance.pick.created', { pickId }) },
    {
      type: 'insurance.addon.created',
      event: insuranceEvent('insurance.addon.created', { parentPickId: pickId, tradeSeq: 2 }),
    },
    { type: 'insurance.pick.killed', event: insuranceEvent('insurance.pick.killed', { pickId, tradeSeq: 3 }) },
    { type: 'edge.trade.entered', event: edgeEvent('edge.trade.entered', { tradeId }) },
    { type: 'edge.trade.exited', event: edgeEvent('edge.trade.exited', { tradeId }) },
    { type: 'webhook.test', event: testEvent() },
  ];
}
