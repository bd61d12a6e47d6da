/**
 * DESIGN 4 "the book's horizon": insurance picks reach the monitor only as webhook events (spec 6), so a pick made
 * before the service knew the listener never reaches the cache. The cache keeps the instant from which it receives
 * them: the listener's registration in the demo (the monitor registers it with its own service), else its first
 * verified delivery (a live service is registered by a person on its webhooks page, which the monitor cannot see).
 * The one place of the rule and its words: Positions, the board and `status` say it alike.
 */

/** The instant from which insurance picks reach the cache, and what set it. */
export interface BookHorizon {
  /** ISO 8601, the service's clock. */
  at: string;
  ms: number;
  from: 'registration' | 'delivery';
}

/** With no horizon at all: no listener ever verified a delivery, so no pick can be in the cache. */
export const NO_PICKS_RECEIVED = 'insurance picks: none received (no listener)';

/** `12-02 09:14Z`: the screens' short UTC stamp (tui/format/time.ts utcStamp), for a note beside figures. */
const stamp = (iso: string): string => `${iso.slice(5, 10)} ${iso.slice(11, 16)}Z`;

/**
 * What a day's figures say of its insurance picks (null: nothing, the book is whole): a day that began before the
 * horizon may have had picks made before it, which the cache never received, so its staked and P&L leave them out.
 * `horizon` undefined: the read did not look (no note).
 */
export function picksNote(
  horizon: BookHorizon | null | undefined,
  dayStartMs: number,
  form: 'short' | 'iso' = 'short',
): string | null {
  if (horizon === undefined) return null;
  if (horizon === null) return NO_PICKS_RECEIVED;
  if (dayStartMs >= horizon.ms) return null;
  return `insurance picks since ${form === 'iso' ? horizon.at : stamp(horizon.at)}`;
}

/** The note of the earliest day shown (several cities' days: the one that began first misses the most). */
export function booksNote(
  horizon: BookHorizon | null | undefined,
  dayStartsMs: readonly number[],
  form: 'short' | 'iso' = 'short',
): string | null {
  if (horizon === null) return NO_PICKS_RECEIVED;
  if (dayStartsMs.length === 0) return null;
  return picksNote(horizon, Math.min(...dayStartsMs), form);
}

/** What a pick of the book whose own pick (the parent of an addon, the pick a kill closes) is not in the cache shows. */
export const PICK_NOT_RECEIVED = 'pick not received' as const;
