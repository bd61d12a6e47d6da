import { parseDateOrInstant } from './city-time.js';

const DAY_MS = 86_400_000;

/**
 * A `since`/`until` that cannot bound anything: which one (`both` when they contradict each other) and why, in
 * words each caller prefixes with its own name for them (a query parameter, an option).
 */
export class TimeBoundsError extends Error {
  constructor(
    readonly bound: 'since' | 'until' | 'both',
    message: string,
  ) {
    super(message);
  }
}

/** Inclusive bounds on a column: epoch ms on an instant column, `YYYY-MM-DD` on a date column. */
export interface TimeBounds<T> {
  since?: T;
  until?: T;
}

/**
 * spec 4.4's `since`/`until` as inclusive bounds on a table's time column, the one rule of the service and the
 * monitor (server/http/query-bounds.ts, cache/db/time.ts):
 * - on an instant column a date is its whole UTC day (since: its first millisecond, until: its last) and an instant
 *   is itself; on a date column an instant is its UTC date;
 * - each is `YYYY-MM-DD` or an ISO 8601 instant (city-time.ts's parseDateOrInstant: no offset means UTC);
 * - since after until is refused, whatever the column: since's first instant after until's last instant asks for
 *   nothing, and saying so beats an empty answer.
 * Throws a TimeBoundsError naming the bound.
 */
export function timeBounds(kind: 'instant', since?: string, until?: string): TimeBounds<number>;
export function timeBounds(kind: 'date', since?: string, until?: string): TimeBounds<string>;
export function timeBounds(kind: 'instant' | 'date', since?: string, until?: string): TimeBounds<number | string>;
export function timeBounds(kind: 'instant' | 'date', since?: string, until?: string): TimeBounds<number | string> {
  const lower = since === undefined ? undefined : parsed('since', since);
  const upper = until === undefined ? undefined : parsed('until', until);
  const first = lower?.ms;
  const last = upper && (upper.kind === 'date' ? upper.ms + DAY_MS - 1 : upper.ms);
  if (first !== undefined && last !== undefined && first > last) {
    throw new TimeBoundsError('both', `since (${since}) is after until (${until})`);
  }
  if (kind === 'date') return { since: lower?.date, until: upper?.date };
  return { since: first, until: last };
}

function parsed(bound: 'since' | 'until', text: string) {
  const value = parseDateOrInstant(text);
  if (!value) {
    throw new TimeBoundsError(bound, `'${text}' is not YYYY-MM-DD or an ISO 8601 instant of a real day`);
  }
  return value;
}
