import type { DayQuote, MetarDay, Venue } from '../cache/index.js';
import { parseBucketLabel } from '../domain/bucket-label.js';
import { type Bucket, marketBuckets } from '../domain/buckets.js';
import { type DeskAliases, highForecastOf } from '../domain/desk-forecast.js';
import {
  bucketHoldsRunningHigh,
  bucketIsDead,
  bucketProbability,
  type HighForecast,
  type Market,
  riseToNextBucket,
  roundHalfUp,
  runningHighBeyondForecast,
  usableForecast,
} from '../domain/settlement.js';
import { fToC, toMarketUnit } from '../domain/units.js';
import { bestEdge, NO_VENUE_EDGES, type SideEdge, sideEdges, type VenueEdges, venueEdges } from './best-edge.js';
import {
  type Behind,
  type ComparableQuotes,
  dayBehind,
  informedAt,
  snapshotMsOf,
  venueBehind,
} from './same-instant.js';
import { bucketCross, type VenueCross, type VenuesHeldUntil, venueStale } from './venue-crosses.js';

export { type SideEdge, sideEdges, type VenueEdges };

/** One bucket of a market day, priced. */
export interface PricedBucket {
  /** The venue's slug and label, as written (null: the venue's row gave none). */
  slug: string | null;
  label: string | null;
  /** The label read as whole degrees of the market's unit; null when the monitor cannot read it: then p is null. */
  bucket: Bucket | null;
  /** A venue lists it (false: laid out around the forecast, before any venue's snapshot). */
  listed: boolean;
  /** DESIGN 4's probability that the day settles here; null without a usable forecast or a readable label. */
  p: number | null;
  /** No value it settles on is reachable from the running high any more. */
  dead: boolean;
  mkta: DayQuote | null;
  mktb: DayQuote | null;
  /** Each side's better venue (null: no price for it, or no p). */
  yes: SideEdge | null;
  no: SideEdge | null;
  /** The larger of the two. */
  best: SideEdge | null;
  /**
   * Each venue's own better side (Forecasts' `edge a`/`edge b`), by the best edge's rules: an offer only, a venue
   * comparable with the model only; none on a CHECK day or a day over.
   */
  edges: VenueEdges;
  /**
   * One venue sells the bucket's YES below what the other bids for it, after both costs, on snapshots of about the
   * same instant, neither venue stale (venue-crosses.ts): the board's CROSS. Null: none, or the day is over.
   */
  cross: VenueCross | null;
}

/** A market day's buckets priced by DESIGN 4 under its settlement rule, and what the board reads off them. */
export interface PricedDay {
  market: Market;
  /** X ~ N(mu_c, sigma_c) when the desk's forecast is usable; null otherwise (every p null, no edge). */
  forecast: HighForecast | null;
  /** The desk's `_c` aliases as read, usable or not (`export board`'s mu_c and sigma_c). */
  deskC: Partial<HighForecast> | null;
  /** The METAR high so far, a whole °C; null before the first reading. */
  runningHighC: number | null;
  /** Lowest first; a bucket whose label cannot be read comes last. */
  buckets: PricedBucket[];
  /** DESIGN 4 "next": how far (market unit) the running high must rise before a higher bucket can win. */
  next: number | null;
  /**
   * The running high is far outside the forecast: the forecast leaves (numerically) no mass at or above it, so the
   * rule kills every bucket but the one holding it (a tail, usually) and gives it 1. A bad METAR far more often than
   * a real day: the board flags the row CHECK, offers no best edge and raises no alert on it.
   */
  check: boolean;
  /**
   * DESIGN 4's best edge: the largest effective edge over every bucket and side of both venues that is positive and
   * at an offer (domain/offer.ts); null on CHECK or without one (the board says `no edge`).
   */
  best: DayEdge | null;
  /**
   * While a venue's newest snapshot is ahead of the model (`behind` is `model`) and the row offers no best edge: the
   * best edge of the venues' newest snapshots the model can be compared with (taken at or before what the monitor
   * holds of it), with the instant of that snapshot. The board shows it dimmed with its age instead of a blank; it is
   * never alerted, exported or recorded. Null otherwise.
   */
  lastComparable: { best: DayEdge; snapshotMs: number; ageMs: number } | null;
  /**
   * Each venue whose newest snapshot cannot be compared with the model (same-instant.ts): its prices are shown but
   * offer no edge. `model`: taken after what the monitor holds of the METAR and the desk (a report a minute old, not
   * fetched yet, that the venue has priced: a dead bucket at 0.01 against a model that calls it alive);
   * `prices`: taken before what the desk has learnt since (a bucket the reading killed still quoted at 0.70).
   */
  venueBehind: Record<Venue, Behind | null>;
  /** The day's (same-instant.ts `dayBehind`): what the board says is behind. */
  behind: Behind | null;
  /** The instant of each venue's newest snapshot (null: none with a time): an edge on it is of that instant. */
  snapshotMs: Record<Venue, number | null>;
}

/** A side of a bucket, with the bucket. */
export type DayEdge = SideEdge & { bucket: PricedBucket };

/** What a day is priced from. */
export interface PricingInput {
  market: Market;
  /** The desk's `_c` aliases, as read (settlement.ts decides whether they are usable). */
  forecast: Partial<HighForecast> | null;
  runningHighC: number | null;
  mkta: readonly DayQuote[];
  mktb: readonly DayQuote[];
  /** The newest instant the board's figures rest on (the desk's run, the reading that set the high); null: unknown. */
  informedAtMs: number | null;
  /** Up to when the monitor holds the METAR reports and the desk's forecast (same-instant.ts); null: no bound. */
  modelKnownUntilMs: number | null;
  /**
   * Each venue ahead of the model: its newest snapshot at or before `modelKnownUntilMs` (same-instant.ts
   * `comparableQuotes`), priced for the row's last comparable edge. Null or left out: none.
   */
  comparable?: ComparableQuotes | null;
  /** Up to when the monitor holds each venue's stream (venue-crosses.ts): a venue silent since is stale, crosses nothing. */
  venueHeldUntilMs?: VenuesHeldUntil | null;
}

/** The running METAR high in whole °C, as the venue settles on it (from °F only when a reading carries no °C). */
export function runningHighCOf(high: MetarDay['high']): number | null {
  return high === null ? null : roundHalfUp(high.c ?? fToC(high.f));
}

/** What a day is read as (the board's day, an hour of the board's record): the one assembly of `priceDay`'s input. */
export interface DayReading {
  market: Market;
  /** The desk's newest run for the day (`svc_pro_forecast`, or the history's row of it). */
  desk: DeskAliases | null;
  high: MetarDay['high'];
  mkta: readonly DayQuote[];
  mktb: readonly DayQuote[];
  modelKnownUntilMs: number | null;
  comparable?: ComparableQuotes | null;
  venueHeldUntilMs?: VenuesHeldUntil | null;
}

export function pricingOf(reading: DayReading): PricingInput {
  const { market, desk, high, mkta, mktb, modelKnownUntilMs, comparable, venueHeldUntilMs } = reading;
  return {
    market,
    forecast: highForecastOf(desk),
    runningHighC: runningHighCOf(high),
    mkta,
    mktb,
    informedAtMs: informedAt(desk?.fetched_at, high),
    modelKnownUntilMs,
    comparable: comparable ?? null,
    venueHeldUntilMs: venueHeldUntilMs ?? null,
  };
}

const keyOf = (q: DayQuote): string => q.bucket_slug ?? q.bucket_label ?? `#${q.id}`;

/**
 * Labels read, kept: a venue lists the same few dozen labels all day, every day, and the board's record prices
 * thousands of snapshots of them. Bounded: cleared past a few thousand.
 */
const labels = new Map<string, ReturnType<typeof parseBucketLabel>>();
function labelOf(label: string): ReturnType<typeof parseBucketLabel> {
  let parsed = labels.get(label);
  if (parsed === undefined) {
    if (labels.size >= 5000) labels.clear();
    parsed = parseBucketLabel(label);
    labels.set(label, parsed);
  }
  return parsed;
}

/**
 * The buckets of a market day: the venues' own (both venues' rows matched by slug, else label), else, before any
 * snapshot, the buckets laid out around the forecast as venues do. Each priced by DESIGN 4's bucket probability under
 * the market's settlement rule, conditioned on the running high, with each side's effective edge on both venues.
 */
export function priceDay(v: PricingInput): PricedDay {
  const { market, runningHighC } = v;
  const forecast = usableForecast(v.forecast);
  const a = new Map(v.mkta.map((q) => [keyOf(q), q]));
  const b = new Map(v.mktb.map((q) => [keyOf(q), q]));
  const keys = [...new Set([...a.keys(), ...b.keys()])];
  const read = (label: string | null): Bucket | null => {
    const parsed = label === null ? null : labelOf(label);
    return parsed && parsed.unit === market.unit ? parsed : null;
  };
  const rows = keys.length
    ? keys.map((k) => {
        const qa = a.get(k) ?? null;
        const qb = b.get(k) ?? null;
        const label = qa?.bucket_label ?? qb?.bucket_label ?? null;
        return { slug: qa?.bucket_slug ?? qb?.bucket_slug ?? null, label, bucket: read(label), qa, qb, listed: true };
      })
    : forecast === null
      ? []
      : marketBuckets(market.unit, toMarketUnit(forecast.muC, market.unit)).map((bucket) => ({
          slug: bucket.slug,
          label: bucket.label,
          bucket,
          qa: null,
          qb: null,
          listed: false,
        }));
  const readable = rows
    .filter((r) => r.bucket !== null)
    .sort((x, y) => (x.bucket as Bucket).low - (y.bucket as Bucket).low);
  const snapshotMs = { mkta: snapshotMsOf(v.mkta), mktb: snapshotMsOf(v.mktb) };
  const behindOf = (venue: Venue) => venueBehind(snapshotMs[venue], v.modelKnownUntilMs, v.informedAtMs);
  const behind = { mkta: behindOf('mkta'), mktb: behindOf('mktb') };
  // a venue whose snapshot and the model are of different instants offers no side (its prices stay on the bucket)
  const comparable = (venue: Venue, q: DayQuote | null) => (behind[venue] === null ? q : null);
  // a stale venue (`stale prices`, or silent since the instant its stream is held up to) crosses nothing
  const staleOf = (venue: Venue) => venueStale(behind[venue], snapshotMs[venue], v.venueHeldUntilMs?.[venue] ?? null);
  const stale = { mkta: staleOf('mkta'), mktb: staleOf('mktb') };
  const check = runningHighBeyondForecast(market, forecast, runningHighC);
  const buckets = [...readable, ...rows.filter((r) => r.bucket === null)].map(
    ({ slug, label, bucket, qa, qb, listed }): PricedBucket => {
      const p = bucket ? bucketProbability(bucket, market, forecast, runningHighC) : null;
      return {
        slug,
        label,
        bucket,
        listed,
        p,
        dead: bucket ? bucketIsDead(bucket, market, runningHighC) : false,
        mkta: qa,
        mktb: qb,
        cross: bucketCross(qa, qb, stale),
        edges: check ? NO_VENUE_EDGES : venueEdges(p, { mkta: qa, mktb: qb }, comparable),
        ...sideEdges(p, [
          ['mkta', comparable('mkta', qa)],
          ['mktb', comparable('mktb', qb)],
        ]),
      };
    },
  );
  const best = check ? null : bestEdge(buckets, comparable);
  const dayBehindSide = dayBehind(behind);
  let next: number | null = null;
  if (runningHighC !== null) {
    const holding = buckets.find((x) => x.bucket && bucketHoldsRunningHigh(x.bucket, market, runningHighC))?.bucket;
    if (holding) next = riseToNextBucket(holding, market, runningHighC);
  }
  return {
    market,
    forecast,
    deskC: v.forecast,
    runningHighC,
    buckets,
    next,
    check,
    best,
    lastComparable: best === null && dayBehindSide === 'model' && !check ? lastComparableEdge(v, behind) : null,
    venueBehind: behind,
    behind: dayBehindSide,
    snapshotMs,
  };
}

/**
 * The row's last comparable edge while a venue is ahead of the model: the day priced again with each such venue's
 * newest snapshot the model can be compared with, the other venue as it stands; its best edge and that snapshot's
 * instant. None when no such snapshot is cached, or when it is older than what the desk has learnt since.
 */
function lastComparableEdge(v: PricingInput, behind: Record<Venue, Behind | null>): PricedDay['lastComparable'] {
  const earlier = v.comparable;
  if (!earlier) return null;
  const quotes = (venue: Venue) => (behind[venue] === 'model' ? (earlier[venue] ?? []) : v[venue]);
  const { comparable: _, ...input } = v;
  const then = priceDay({ ...input, mkta: quotes('mkta'), mktb: quotes('mktb') });
  if (then.best === null || then.venueBehind[then.best.venue] !== null) return null;
  const snapshotMs = then.snapshotMs[then.best.venue];
  return snapshotMs === null ? null : { best: then.best, snapshotMs, ageMs: Math.max(0, earlier.atMs - snapshotMs) };
}
