import { randomUUID } from 'node:crypto';
import { Compile } from 'typebox/compile';
import { afterEach, describe, expect, it } from 'vitest';
import { DeliveryHeaders, EdgeEvent, InsuranceEvent, TestEvent } from '../../src/contract/events.js';
import { signBody } from '../../src/domain/signature.js';
import { WebhookStore } from '../../src/server/store/webhooks.js';
import { answer, startReceiver } from '../helpers/receiver.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { TEMPLATE_START } from '../helpers/world-template.js';

const HOUR = 3_600_000;

/** Resolves once `check` holds, looking every 20 ms: tests wait for a state, never for a time. */
async function until<T>(check: () => T | undefined | false): Promise<T> {
  for (;;) {
    const value = check();
    if (value !== undefined && value !== false) return value;
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** A webhook's one delivery, as the outbox holds it. */
const deliveryOf = (svc: TestService, webhookId: string) =>
  svc.service.db.prepare('SELECT status, attempts FROM webhook_deliveries WHERE webhook_id = ?').get(webhookId) as
    | { status: string; attempts: number }
    | undefined;

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function setup(
  options: { speed?: number; responder?: Parameters<typeof startReceiver>[0]; events?: string[] } = {},
) {
  const receiver = await startReceiver(options.responder);
  const svc: TestService = await startTestService({ allowPrivateWebhooks: true, speed: options.speed ?? 1 });
  cleanups.push(receiver.close, () => svc.close());
  const store = new WebhookStore(svc.service.db);
  const { id, secret } = store.add(receiver.url, options.events ?? ['webhook.test'], false);
  const queueTest = () => {
    const eventId = randomUUID();
    store.enqueue(id, eventId, 'webhook.test', {
      event_id: eventId,
      event_type: 'webhook.test',
      event_version: 1,
      created_at: '2026-11-21T12:00:00Z',
      attempt: 1,
      message: 'hello',
    });
    svc.service.dispatcher.wake();
    return eventId;
  };
  return { receiver, svc, store, id, secret, queueTest };
}

const validators = { test: Compile(TestEvent), insurance: Compile(InsuranceEvent), edge: Compile(EdgeEvent) };
const headers = Compile(DeliveryHeaders);

describe('webhook delivery', () => {
  it('signs the exact bytes it sends, carries every header of spec 6.2, and honours subscriptions', async () => {
    const receiver = await startReceiver();
    // a fast world clock: the world produces its events as time passes, and they fall due as they are made
    const svc = await startTestService({ allowPrivateWebhooks: true, speed: 20_000, tickMs: 50 });
    cleanups.push(receiver.close, () => svc.close());
    const store = new WebhookStore(svc.service.db);
    const some = store.add(`${receiver.url}/some`, ['webhook.test', 'edge.trade.entered', 'edge.trade.exited'], false);
    const all = store.add(`${receiver.url}/all`, null, false);
    while ((svc.service.world.processedUntil() ?? 0) < TEMPLATE_START + 30 * HOUR)
      await new Promise((r) => setTimeout(r, 50));
    const queued = svc.service.db.prepare('SELECT count(*) FROM webhook_deliveries').pluck().get() as number;
    expect(queued).toBeGreaterThan(10);
    const requests = await receiver.waitFor(queued);
    const typesFor = { some: new Set<string>(), all: new Set<string>() };
    for (const request of requests) {
      const which = String(request.headers['x-svc-path']).endsWith('/all') ? 'all' : 'some';
      const secret = which === 'all' ? all.secret : some.secret;
      expect(request.headers['x-svc-signature']).toBe(signBody(secret, request.body));
      expect(headers.Check(request.headers), JSON.stringify(headers.Errors(request.headers)[0])).toBe(true);
      expect(request.headers['content-type']).toBe('application/json');
      const type = String(request.headers['x-svc-event']);
      typesFor[which].add(type);
      const body = JSON.parse(request.body.toString('utf8'));
      const validator = type.startsWith('edge.')
        ? validators.edge
        : type.startsWith('insurance.')
          ? validators.insurance
          : validators.test;
      expect(validator.Check(body), `${type}: ${JSON.stringify(validator.Errors(body)[0])}`).toBe(true);
      expect(body.event_type).toBe(type);
      if (!type.startsWith('edge.')) expect(body.event_id).toBe(request.headers['x-svc-event-id']);
    }
    expect([...typesFor.some].every((t) => t.startsWith('edge.'))).toBe(true);
    expect(typesFor.all.has('edge.trade.entered')).toBe(true);
  });

  it('keeps the event id, changes the delivery id and re-signs a body that differs only in attempt', async () => {
    const { receiver, svc, id, store, secret, queueTest } = await setup({
      speed: 600,
      responder: (_request, index, response) => response.writeHead(index < 2 ? 503 : 200).end(),
    });
    const eventId = queueTest();
    const [first, second, third] = await receiver.waitFor(3);
    for (const [i, request] of [first, second, third].entries()) {
      expect(request?.headers['x-svc-event-id']).toBe(eventId);
      expect(signBody(secret, request?.body ?? Buffer.alloc(0))).toBe(request?.headers['x-svc-signature']);
      expect(JSON.parse(String(request?.body)).attempt).toBe(i + 1);
    }
    const deliveryIds = new Set([first, second, third].map((r) => r?.headers['x-svc-delivery']));
    expect(deliveryIds.size).toBe(3);
    const strip = (body: Buffer | undefined) => String(body).replace(/"attempt":\d+/, '"attempt":_');
    expect(strip(second?.body)).toBe(strip(first?.body));
    expect(strip(third?.body)).toBe(strip(first?.body));
    // delivered by the third: recorded so, nothing is due any more, so nothing more is ever sent
    expect(await until(() => deliveryOf(svc, id)?.status === 'delivered' && deliveryOf(svc, id))).toEqual({
      status: 'delivered',
      attempts: 3,
    });
    expect(store.attempts(id).map((a) => a.next_attempt_at === null)).toEqual([false, false, true]);
    expect(receiver.received).toHaveLength(3);
  });

  it('schedules retries 1 min, 5 min, 30 min, 2 h and 12 h of world time after each failure, sends none early, then gives up', async () => {
    // a fast world clock (the 14.6 h of delays pass in about 9 s): the schedule is checked on the world's own
    // instants, as the outbox records them, not on this machine's timing
    const { receiver, svc, store, id, queueTest } = await setup({ speed: 6_000, responder: answer(500) });
    queueTest();
    expect(await until(() => deliveryOf(svc, id)?.status === 'failed' && deliveryOf(svc, id))).toEqual({
      status: 'failed',
      attempts: 6,
    });
    const attempts = store.attempts(id);
    expect(attempts.map((a) => a.attempt)).toEqual([1, 2, 3, 4, 5, 6]);
    const at = attempts.map((a) => Date.parse(a.attempted_at));
    const due = attempts.map((a) => (a.next_attempt_at === null ? null : Date.parse(a.next_attempt_at)));
    // each failure schedules the next attempt exactly its delay after it; the sixth schedules none
    expect(due.map((d, i) => (d === null ? null : d - (at[i] as number)))).toEqual([
      60_000,
      300_000,
      1_800_000,
      7_200_000,
      43_200_000,
      null,
    ]);
    // and each retry went out no earlier than it was due (an attempt is recorded when its answer came)
    for (let i = 1; i < 6; i++) expect(at[i], `attempt ${i + 1}`).toBeGreaterThanOrEqual(due[i - 1] as number);
    // a failed delivery is never due again: six requests in all
    expect(receiver.received).toHaveLength(6);
  });

  it('stays active after 9 failures and a success, and resets the count', async () => {
    const { receiver, store, id, queueTest } = await setup({
      responder: (_request, index, response) => response.writeHead(index < 9 ? 500 : 204).end(),
    });
    for (let i = 0; i < 10; i++) queueTest();
    await receiver.waitFor(10);
    // all ten outcomes recorded, the success last: the count it reset is the one left
    await until(() => store.attempts(id).length === 10);
    expect(store.get(id)).toMatchObject({ status: 'active', consecutive_failures: 0 });
  });

  it('disables a webhook at its 10th consecutive failure and sends nothing more until enabled', async () => {
    const { receiver, svc, store, id, queueTest } = await setup({ responder: answer(500) });
    for (let i = 0; i < 15; i++) queueTest();
    await receiver.waitFor(10);
    // disabled once the tenth failure is recorded; no more than ten can have been in flight (the dispatcher keeps
    // failures in flight below the failures left), and a disabled webhook is never due
    await until(() => store.get(id)?.status === 'disabled');
    expect(store.attempts(id)).toHaveLength(10);
    svc.service.dispatcher.wake();
    expect(receiver.received).toHaveLength(10);
    expect(store.get(id)).toMatchObject({ status: 'disabled', consecutive_failures: 10 });

    receiver.respondWith(answer(200));
    store.enable(id);
    svc.service.dispatcher.wake();
    // the five never tried go out now; the ten that failed wait for their retry a world minute later
    await receiver.waitFor(15);
    expect(store.get(id)).toMatchObject({ status: 'active', consecutive_failures: 0 });
  });

  it('counts a receiver that answers nothing within 8 s as a failure', async () => {
    const { receiver, store, id, queueTest } = await setup({ responder: () => undefined });
    queueTest();
    await receiver.waitFor(1);
    const [attempt] = await until(() => store.attempts(id).length > 0 && store.attempts(id));
    expect(attempt?.error).toBe('no answer within 8 s');
    // never given up early (a loaded machine can only make it later)
    expect(attempt?.duration_ms).toBeGreaterThanOrEqual(7_900);
    expect(store.get(id)?.consecutive_failures).toBe(1);
  });

  it('counts a redirect as a failure and does not follow it', async () => {
    const target = await startReceiver();
    cleanups.push(target.close);
    const { receiver, store, id, queueTest } = await setup({ responder: answer(302, { location: target.url }) });
    queueTest();
    await receiver.waitFor(1);
    // the attempt is recorded once its answer is in: a redirect followed would have reached the target before
    const [attempt] = await until(() => store.attempts(id).length > 0 && store.attempts(id));
    expect(attempt).toMatchObject({ status_code: 302, error: 'redirect not followed' });
    expect(target.received).toHaveLength(0);
  });

  it('refuses to connect to a private address unless allowed, and counts that as a failure', async () => {
    const receiver = await startReceiver();
    const svc = await startTestService({ speed: 1 });
    cleanups.push(receiver.close, () => svc.close());
    const store = new WebhookStore(svc.service.db);
    const { id } = store.add(receiver.url, ['webhook.test'], false);
    store.enqueue(id, randomUUID(), 'webhook.test', {
      event_id: randomUUID(),
      event_type: 'webhook.test',
      event_version: 1,
      created_at: '2026-11-21T12:00:00Z',
      attempt: 1,
      message: 'x',
    });
    svc.service.dispatcher.wake();
    const [attempt] = await until(() => store.attempts(id).length > 0 && store.attempts(id));
    expect(attempt?.error).toMatch(/^refused: .*loopback/);
    expect(receiver.received).toHaveLength(0);
  });
});
