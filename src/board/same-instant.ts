import type { Cache, DayQuote, MetarDay, StreamState, Venue } from '../cache/index.js';

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
  return Math.min(
    ...MODEL_STREAMS.map((name) => {
      const state = states.find((s) => s.stream === name);
      const at = Date.parse(state?.complete_at ?? state?.last_success_at ?? '');
      return Number.isFinite(at) ? at : Number.NEGATIVE_INFINITY;
    }),
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

/** The instant of a venue's newest snapshot (one instant for all its buckets); null: none has a time. */
export function snapshotMsOf(quotes: readonly DayQuote[]): number | null {
  const times = quotes.map((q) => (q.snapshot_at ? Date.parse(q.snapshot_at) : Number.NaN)).filter(Number.isFinite);
  return times.length === 0 ? null : Math.max(...times);
}

/**
 * Which side a venue's newest snapshot (taken at `snapshotMs`) is behind, or null when it may be compared. A
 * snapshot without a time is judged comparable, as is every snapshot when no bound is known. Compared, the snapshot's
 * instant is the instant the comparison is of: the board as of it, read again later from the rows' own times
 * (`export board --at`), shows the same edge, since a report or a run after it would have made the price stale.
 */
export function venueBehind(
  snapshotMs: number | null,
  modelKnownUntilMs: number | null,
  informedAtMs: number | null,
): Behind | null {
  if (snapshotMs === null) return null;
  if (modelKnownUntilMs !== null && snapshotMs > modelKnownUntilMs) return 'model';
  if (informedAtMs !== null && snapshotMs < informedAtMs) return 'prices';
  return null;
}

/** The day's: `model` when a venue is ahead of the model, else `prices` when one is stale, else null. */
export function dayBehind(venues: Record<Venue, Behind | null>): Behind | null {
  const sides = Object.values(venues);
  return sides.includes('model') ? 'model' : sides.includes('prices') ? 'prices' : null;
}

/**
 * Each venue whose newest snapshot is ahead of the model, with its newest snapshot the model can be compared with
 * (taken at or before `modelKnownUntilMs`); `atMs`: the board's clock, which the age of that snapshot is measured on.
 */
export interface ComparableQuotes {
  atMs: number;
  mkta?: readonly DayQuote[];
  mktb?: readonly DayQuote[];
}

/**
 * While a venue's newest snapshot of a city-day is ahead of the model (`model behind`: every half-hour report, a
 * first fill), its newest snapshot at or before what the monitor holds of the model: what the board last could
 * compare, shown dimmed with its age instead of a blank. A keyset read of a few dozen rows a venue ahead, none else.
 * Null when no venue is ahead, or the model is held up to no instant yet (a first pass not done).
 */
export function comparableQuotes(
  cache: Cache,
  day: { cityId: string; date: string; atMs: number; modelKnownUntilMs: number | null },
  newest: Record<Venue, readonly DayQuote[]>,
): ComparableQuotes | null {
  const until = day.modelKnownUntilMs;
  if (until === null || !Number.isFinite(until)) return null;
  const ahead = (['mkta', 'mktb'] as const).filter(
    (venue) => venueBehind(snapshotMsOf(newest[venue]), until, null) === 'model',
  );
  if (ahead.length === 0) return null;
  const out: ComparableQuotes = { atMs: day.atMs };
  for (const venue of ahead) out[venue] = cache.market.newestSnapshot(venue, day.cityId, day.date, until);
  return out;
}
