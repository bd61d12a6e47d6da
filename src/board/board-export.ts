import type { Cache, DayQuote, Venue } from '../cache/index.js';
import type { City } from '../contract/cities.js';
import type { MarketUnit } from '../contract/common.js';
import type { SettlementConfig } from '../contract/config.js';
import { OPEN_HIGH, OPEN_LOW } from '../domain/buckets.js';
import type { DayPhase } from '../domain/day-phase.js';
import { round } from '../domain/units.js';
import type { BoardFlag, BoardRow } from './board-row.js';
import type { PricedBucket } from './priced-day.js';
import { readBoard } from './read-board.js';
import type { Behind } from './same-instant.js';

/** A venue's newest quote of a bucket, as `export board` writes it. */
export interface BoardQuote {
  yes_price: number | null;
  no_price: number | null;
  snapshot_at: string | null;
}

/** One bucket of `export board` (DESIGN 3): `low`/`high` whole degrees of the market's unit, null at an open end. */
export interface BoardBucket {
  bucket_slug: string | null;
  bucket_label: string | null;
  low: number | null;
  high: number | null;
  p: number | null;
  dead: boolean;
  /** An open position holds it (the ladder's mark). */
  held: boolean;
  mkta: BoardQuote | null;
  mktb: BoardQuote | null;
}

/** The board's best effective edge of a city-day. */
export interface BoardEdge {
  venue: Venue;
  bucket_slug: string | null;
  side: 'YES' | 'NO';
  price: number;
  edge: number;
}

/** One city of `export board`: exactly DESIGN 3's fields, in its order, every one the board row shows. */
export interface BoardCity {
  city_id: string;
  city_name: string;
  local_date: string;
  local_time: string;
  phase: DayPhase;
  unit: MarketUnit;
  mu_c: number | null;
  sigma_c: number | null;
  /** The desk's forecast in the market's unit (its own aliases), as the row shows it. */
  mu: number | null;
  sigma: number | null;
  /** The models' spread in the market's unit. */
  spread: number | null;
  running_high_c: number | null;
  /** How far (market unit) the running high must rise before a higher bucket can win. */
  next: number | null;
  buckets: BoardBucket[];
  best_edge: BoardEdge | null;
  /** Which side a price and the model wait for (DESIGN 4 "a price against a model of the same instant"). */
  behind: Behind | null;
  /** The city-day's open positions: what they staked, and their P&L at the newest mkta quote. */
  staked: number;
  pnl: number | null;
  flags: BoardFlag[];
}

/**
 * DESIGN 3's precision, what each number means and no more: probabilities, prices and edges 4 decimals (never
 * `0.41033900000000004`), temperatures, `spread` and `next` 2 (never `3.6000000000000014`), money 2.
 */
const PRECISION = { probability: 4, price: 4, edge: 4, temperature: 2, money: 2 } as const;
const fixed =
  (digits: number) =>
  <T extends number | null | undefined>(n: T): T =>
    (typeof n === 'number' && Number.isFinite(n) ? round(n, digits) : n) as T;
const prob = fixed(PRECISION.probability);
const priceOf = fixed(PRECISION.price);
const edgeOf = fixed(PRECISION.edge);
const temp = fixed(PRECISION.temperature);
const money = fixed(PRECISION.money);

const quoteOf = (q: DayQuote | null): BoardQuote | null =>
  q && { yes_price: priceOf(q.yes_price), no_price: priceOf(q.no_price), snapshot_at: q.snapshot_at };

function bucketOf(r: PricedBucket, held: ReadonlySet<PricedBucket>): BoardBucket {
  const b = r.bucket;
  return {
    bucket_slug: r.slug,
    bucket_label: r.label,
    low: b === null || b.low === OPEN_LOW ? null : b.low,
    high: b === null || b.high === OPEN_HIGH ? null : b.high,
    p: prob(r.p),
    dead: r.dead,
    held: held.has(r),
    mkta: quoteOf(r.mkta),
    mktb: quoteOf(r.mktb),
  };
}

/**
 * One city of `export board` from its board row (board-row.ts): what the row shows, and the buckets the venues list,
 * each with its p and both venues' newest prices. `mu_c`/`sigma_c` are the desk's aliases as cached (null when not a
 * number); `p` and `edge` are null where the forecast is unusable (missing, zero, negative or infinite sigma), `p`
 * also where a label cannot be read; never NaN. A CHECK day (the running high far outside the forecast), or one whose
 * prices and model are of different instants, has no best edge.
 */
export function boardCityOf(row: BoardRow): BoardCity {
  const desk = row.deskC;
  const best = row.best;
  return {
    city_id: row.cityId,
    city_name: row.name,
    local_date: row.date,
    local_time: row.localTime,
    phase: row.phase,
    unit: row.unit,
    mu_c: temp(desk?.muC ?? null),
    sigma_c: temp(desk?.sigmaC ?? null),
    mu: temp(row.shown?.mu ?? null),
    sigma: temp(row.shown?.sigma ?? null),
    spread: temp(row.spread),
    running_high_c: temp(row.runningHighC),
    next: temp(row.next),
    buckets: row.buckets.filter((r) => r.listed).map((r) => bucketOf(r, row.held)),
    best_edge: best && {
      venue: best.venue,
      bucket_slug: best.bucket.slug,
      side: best.side,
      price: priceOf(best.price),
      edge: edgeOf(best.edge),
    },
    behind: row.behind,
    staked: money(row.exposure),
    pnl: money(row.pnl),
    flags: row.flags,
  };
}

/** What `export board` is asked for (DESIGN 3). */
export interface BoardExportAsk {
  /** As of this instant (`--at`); left out, now, and the book as it stands. */
  atMs: number;
  replay: boolean;
  /** `--date`: the market day in every city; left out, each city's own local date at the instant. */
  date?: string;
  cities: readonly City[];
  settlement?: SettlementConfig;
}

/**
 * `svc-monitor export board`: every city asked for, as its board row shows it at `atMs` (the board's own read,
 * read-board.ts, so the export and the screen cannot differ); as of an instant (`replay`), the book too is read as
 * of it, as time travel reads it.
 */
export function exportBoard(
  cache: Cache,
  { atMs, replay, date, cities, settlement = {} }: BoardExportAsk,
): BoardCity[] {
  const rows = readBoard(cache, cities, atMs, settlement, new Map(), {
    ...(date === undefined ? {} : { date }),
    ...(replay ? { asOf: atMs } : {}),
  });
  return rows.map(boardCityOf);
}

/**
 * The CSV form: one record a bucket, the city's fields repeated and the nested ones flattened (`mkta_yes_price`,
 * `best_edge_venue`, ...); a city with no listed bucket still has one record, its bucket fields empty.
 */
export function boardCsvRecords(cities: readonly BoardCity[]): Record<string, unknown>[] {
  const flat = (prefix: string, value: object | null, keys: readonly string[]) =>
    Object.fromEntries(
      keys.map((k) => [`${prefix}_${k}`, value === null ? null : (value as Record<string, unknown>)[k]]),
    );
  const QUOTE = ['yes_price', 'no_price', 'snapshot_at'] as const;
  const EDGE = ['venue', 'bucket_slug', 'side', 'price', 'edge'] as const;
  const BUCKET = ['bucket_slug', 'bucket_label', 'low', 'high', 'p', 'dead', 'held'] as const;
  return cities.flatMap(({ buckets, best_edge, ...city }) => {
    const edge = flat('best_edge', best_edge, EDGE);
    if (buckets.length === 0)
      return [
        {
          ...city,
          ...Object.fromEntries(BUCKET.map((k) => [k, null])),
          ...flat('mkta', null, QUOTE),
          ...flat('mktb', null, QUOTE),
          ...edge,
        },
      ];
    return buckets.map(({ mkta, mktb, ...bucket }) => ({
      ...city,
      ...bucket,
      ...flat('mkta', mkta, QUOTE),
      ...flat('mktb', mktb, QUOTE),
      ...edge,
    }));
  });
}
