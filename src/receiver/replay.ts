import type { EdgeEvent, InsuranceEvent, TestEvent, WebhookEvent } from '../contract/events.js';
import { LIMITS } from '../contract/limits.js';
import { isEdgeEvent } from './identity.js';

/**
 * The spec's signature carries no time (spec 6.3), so a captured delivery verifies forever. A delivery made more
 * than this before the service's clock is refused as a replay: past the last of the spec's retries (1 + 5 + 30 +
 * 120 + 720 min = 14.6 h after the first attempt), so no retry of the service's own is ever refused, and a capture
 * cannot be replayed into a fresh cache once the day is over.
 */
export const REPLAY_WINDOW_MS = LIMITS.webhookReplayWindowMs;

/**
 * When the event was made, as its signed body says: `created_at` (spec 6.4, DESIGN 4's test payload); an edge event
 * has none (spec 6.5), so its trade's `executed_at`, which the engine sends as it trades.
 */
export function eventInstant(event: WebhookEvent): { field: 'created_at' | 'trade.executed_at'; at: string } {
  if (isEdgeEvent(event)) return { field: 'trade.executed_at', at: (event as EdgeEvent).trade.executed_at };
  return { field: 'created_at', at: (event as InsuranceEvent | TestEvent).created_at };
}

/**
 * The replay line's reason when `event` is older than REPLAY_WINDOW_MS at `nowMs` (the service's clock as the
 * listener knows it), else null: `created_at 2026-11-20T10:00:00Z is 25h older than the service's clock`.
 */
export function replayReason(event: WebhookEvent, nowMs: number): string | null {
  const { field, at } = eventInstant(event);
  const age = nowMs - Date.parse(at);
  if (!(age > REPLAY_WINDOW_MS)) return null;
  return `${field} ${at} is ${Math.floor(age / 3_600_000)}h older than the service's clock`;
}
