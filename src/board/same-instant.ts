import type { DayQuote, MetarDay, StreamState, Venue } from '../cache/index.js';

/**
 * DESIGN 4 "a price against a model of the same instant": a venue's snapshot is compared with the model only when
 * neither knows what the other cannot. `model`: the snapshot was taken after the instant up to which the monitor
 * holds the METAR reports and the desk's forecast (a report or a run the venue may have priced is not fetched yet);
 * `prices`: it was taken before what the desk has learnt since (its newest run, the reading that set the running
 * high). Either way that venue offers no edge, no alert and no trade in the board's record.
 */
export type Behind = 'model' | 'prices';

/** The streams whose rows the model prices with: the running high's reports and the desk's forecast. */
const MODEL_STREAMS = ['metar', 'forecasts'] as const;

/**
 * The instant up to which the monitor holds every METAR report and desk forecast: the earlier of the two streams'
 * completeness (the service's clock at the first answer of its last good pass; before the cache kept that, the pass's
 * own stamp). In a cache a sync runs on, a model stream with no good pass yet holds nothing (-Infinity): the prices
 * of a backfill, say, wait for it. Null: no stream ever ran (a cache filled by hand or by a backfill alone), whose
 * rows' own times are all there is.
 */
export function modelKnownUntil(states: readonly StreamState[]): number | null {
  if (states.length === 0) return null;
  return Math.min(...MODEL_STREAMS.map((name) => knownUntil(states, name)));
}

/** Up to when a stream holds what the service published (-Infinity: it never had a good pass). */
function knownUntil(states: readonly StreamState[], stream: string): number {
  const state = states.find((s) => s.stream === stream);
  const at = Date.parse(state?.complete_at ?? state?.last_success_at ?? '');
  return Number.isFinite(at) ? at : Number.NEGATIVE_INFINITY;
}

/** The stream whose passes bring each venue's snapshots. */
const VENUE_STREAMS: Record<Venue, string> = { mkta: 'mkta-buckets', mktb: 'mktb-buckets' };

/**
 * The instant a venue's price and the model are compared as of, read at `atMs`: the earliest of it, of what the
 * monitor holds of the METAR and the desk, and of what it holds of the venue's snapshots. The board as of that
 * instant, read again later from the rows' own times (`export board --at`), is the board the comparison was made on:
 * every row up to it was held then, and none after it took part (a report or a run after it would have made the price
 * stale). An edge alert is stamped with it. As of an instant the streams hold, it is that instant.
 */
export function comparedAt(atMs: number, states: readonly StreamState[], venue: Venue): number {
  if (states.length === 0) return atMs;
  return Math.min(
    atMs,
    ...MODEL_STREAMS.map((name) => knownUntil(states, name)),
    knownUntil(states, VENUE_STREAMS[venue]),
  );
}

/**
 * The newest instant of what the board prices a day with: the desk's run (`fetched_at`) and the reading that set the
 * running high. A price snapshot older than it is stale against the board's own figures.
 */
export function informedAt(fetchedAt: unknown, high: MetarDay['high']): number | null {
  const run = typeof fetchedAt === 'string' ? Date.parse(fetchedAt) : Number.NaN;
  const times = [run, high?.since ?? Number.NaN].filter((t) => Number.isFinite(t));
  return times.length ? Math.max(...times) : null;
}

/**
 * Which side a venue's newest snapshot (one instant for all its buckets) is behind, or null when it may be compared.
 * A snapshot without a time is judged comparable, as is every snapshot when no bound is known.
 */
export function venueBehind(
  quotes: readonly DayQuote[],
  modelKnownUntilMs: number | null,
  informedAtMs: number | null,
): Behind | null {
  const times = quotes.map((q) => (q.snapshot_at ? Date.parse(q.snapshot_at) : Number.NaN)).filter(Number.isFinite);
  if (times.length === 0) return null;
  const snapshotMs = Math.max(...times);
  if (modelKnownUntilMs !== null && snapshotMs > modelKnownUntilMs) return 'model';
  if (informedAtMs !== null && snapshotMs < informedAtMs) return 'prices';
  return null;
}

/** The day's: `model` when a venue is ahead of the model, else `prices` when one is stale, else null. */
export function dayBehind(venues: Record<Venue, Behind | null>): Behind | null {
  const sides = Object.values(venues);
  return sides.includes('model') ? 'model' : sides.includes('prices') ? 'prices' : null;
}
