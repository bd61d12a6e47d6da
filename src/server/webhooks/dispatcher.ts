import { randomUUID } from 'node:crypto';
import { USER_AGENT } from '../../contract/events.js';
import { LIMITS } from '../../contract/limits.js';
import { signBody } from '../../domain/signature.js';
import type { AttemptOutcome, Delivery, Webhook, WebhookStore } from '../store/webhooks.js';
import { AddressRefused, checkWebhookUrl, type Resolver } from './address-guard.js';
import { postOnce, TargetAgents } from './post-once.js';

export interface WorldTime {
  now(): number;
  readonly speed: number;
}

export interface DispatcherOptions {
  store: WebhookStore;
  clock: WorldTime;
  /** `server --allow-private-webhooks`: private targets allowed for every webhook. */
  allowPrivate: boolean;
  resolve?: Resolver;
  timeoutMs?: number;
  maxInFlight?: number;
  /** Attempts in flight to one webhook at once (never more than its failures left before disabling). */
  perWebhook?: number;
  log?: (line: string) => void;
}

/** Longest sleep between looks at the outbox: admin commands in other processes queue work too. */
const IDLE_POLL_MS = 250;
/** Due deliveries read from the outbox at a time. */
const QUEUE_BATCH = 256;

/** The body of attempt n: the stored payload with `attempt` set (edge events carry none), signed anew each time. */
function deliveryBody(delivery: Delivery, attempt: number): string {
  if (delivery.event_type.startsWith('edge.')) return delivery.payload;
  const payload = JSON.parse(delivery.payload) as Record<string, unknown>;
  payload.attempt = attempt;
  return JSON.stringify(payload);
}

/**
 * Sends due deliveries from the durable outbox. Nothing lives only in memory: a delivery is `pending` until an
 * attempt's outcome is committed, so after a crash the restarted server simply sends what is still due. Retry
 * times are world instants, and the next wake-up is timed to the earliest of them.
 */
export class Dispatcher {
  private readonly agents = new TargetAgents();
  /** Due deliveries read in one batch, launched as room frees up. */
  private queue: Delivery[] = [];
  /** Deliveries sent or being sent whose outcome is not committed yet. */
  private readonly inFlight = new Map<number, Promise<void>>();
  private readonly inFlightByWebhook = new Map<string, number>();
  private outcomes: { delivery: Delivery; outcome: AttemptOutcome; settle: () => void }[] = [];
  private timer: NodeJS.Timeout | undefined;
  private wakePending = false;
  private stopped = false;

  constructor(private readonly opts: DispatcherOptions) {}

  start(): void {
    this.stopped = false;
    this.wake();
  }

  /** Looks at the outbox now (new events were queued). setImmediate, not setTimeout(0): that one waits 1 ms. */
  wake(): void {
    if (this.stopped || this.wakePending) return;
    this.wakePending = true;
    setImmediate(() => {
      this.wakePending = false;
      this.run();
    });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await Promise.all(this.inFlight.values());
    await this.agents.close();
  }

  private run(): void {
    if (this.stopped) return;
    try {
      if (this.queue.length === 0) {
        this.queue = this.opts.store
          .due(this.opts.clock.now(), QUEUE_BATCH)
          .filter((delivery) => !this.inFlight.has(delivery.id));
      }
      const webhooks = new Map<string, Webhook | undefined>();
      const waiting: Delivery[] = [];
      for (const delivery of this.queue) {
        if (!webhooks.has(delivery.webhook_id))
          webhooks.set(delivery.webhook_id, this.opts.store.get(delivery.webhook_id));
        const webhook = webhooks.get(delivery.webhook_id);
        if (webhook?.status !== 'active') continue; // removed or disabled meanwhile: drop from the queue
        if (this.inFlight.size < (this.opts.maxInFlight ?? 64) && this.hasRoom(webhook)) this.launch(webhook, delivery);
        else waiting.push(delivery);
      }
      this.queue = waiting;
    } catch (error) {
      this.opts.log?.(`webhook dispatcher: ${(error as Error).message}`);
    }
    this.scheduleNext();
  }

  /**
   * A webhook may have several attempts in flight only while it has failures to spare: with k failures recorded
   * and n in flight (outcome not yet committed), n + k stays below the disabling threshold, so no request is sent
   * after the tenth failure.
   */
  private hasRoom(webhook: Webhook): boolean {
    const flying = this.inFlightByWebhook.get(webhook.id) ?? 0;
    const spare = LIMITS.webhookDisableAfterFailures - webhook.consecutive_failures - flying;
    return spare > 0 && flying < (this.opts.perWebhook ?? 8);
  }

  private launch(webhook: Webhook, delivery: Delivery): void {
    this.inFlightByWebhook.set(webhook.id, (this.inFlightByWebhook.get(webhook.id) ?? 0) + 1);
    const done = this.attempt(webhook, delivery).then(
      (outcome) =>
        new Promise<void>((settle) => {
          this.outcomes.push({ delivery, outcome, settle });
          if (this.outcomes.length === 1) setImmediate(() => this.commitOutcomes());
        }),
    );
    this.inFlight.set(delivery.id, done);
  }

  /** Group commit: every outcome that arrived in this turn of the event loop goes in one transaction. */
  private commitOutcomes(): void {
    const batch = this.outcomes;
    this.outcomes = [];
    try {
      this.opts.store.recordAttempts(batch);
    } catch (error) {
      // a webhook removed meanwhile takes its deliveries with it; record the rest one by one
      for (const { delivery, outcome } of batch) {
        try {
          this.opts.store.recordAttempt(delivery, outcome);
        } catch {
          this.opts.log?.(`webhook dispatcher: could not record ${delivery.event_id}: ${(error as Error).message}`);
        }
      }
    }
    for (const { delivery, settle } of batch) {
      this.inFlight.delete(delivery.id);
      this.inFlightByWebhook.set(delivery.webhook_id, (this.inFlightByWebhook.get(delivery.webhook_id) ?? 1) - 1);
      settle();
    }
    // launch the next ones in this same turn: the room just freed is the throughput
    this.run();
  }

  private async attempt(webhook: Webhook, delivery: Delivery): Promise<AttemptOutcome> {
    const attempt = delivery.attempts + 1;
    const deliveryUuid = randomUUID();
    const body = deliveryBody(delivery, attempt);
    let result: { statusCode: number | null; error: string | null; durationMs: number };
    try {
      const target = await checkWebhookUrl(webhook.url, {
        allowPrivate: this.opts.allowPrivate || webhook.allow_private,
        resolve: this.opts.resolve,
      });
      result = await postOnce(
        target,
        this.agents.for(webhook.id, target),
        body,
        {
          'content-type': 'application/json',
          'user-agent': USER_AGENT,
          'x-svc-event': delivery.event_type,
          'x-svc-event-id': delivery.event_id,
          'x-svc-delivery': deliveryUuid,
          'x-svc-signature': signBody(webhook.secret, body),
        },
        this.opts.timeoutMs ?? LIMITS.webhookTimeoutMs,
      );
    } catch (error) {
      const refused = error instanceof AddressRefused;
      result = { statusCode: null, error: refused ? `refused: ${error.message}` : String(error), durationMs: 0 };
    }
    return { ...result, attempt, deliveryUuid, at: this.opts.clock.now() };
  }

  private scheduleNext(): void {
    if (this.stopped) return;
    clearTimeout(this.timer);
    let next: number | undefined;
    try {
      next = this.queue.length > 0 ? this.opts.clock.now() : this.opts.store.nextDue();
    } catch (error) {
      // a store that fails (locked, gone) must not take the server down: look again later
      this.opts.log?.(`webhook dispatcher: ${(error as Error).message}`);
      next = undefined;
    }
    let waitMs = next === undefined ? IDLE_POLL_MS : (next - this.opts.clock.now()) / this.opts.clock.speed;
    // what is due now is in flight or waits for room: each commit of outcomes wakes us, no need to spin
    if (waitMs <= 0) waitMs = this.inFlight.size > 0 ? IDLE_POLL_MS : 1;
    this.timer = setTimeout(() => this.run(), Math.min(IDLE_POLL_MS, waitMs));
  }
}
