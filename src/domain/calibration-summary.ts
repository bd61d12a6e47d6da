import type { MarketUnit } from '../contract/common.js';
import type { SettlementConfig } from '../contract/config.js';
import { parseBucketLabel } from './bucket-label.js';
import type { Bucket } from './buckets.js';
import {
  type DayReading,
  type HourlyHits,
  hitsByHour,
  type MeanScore,
  meanPairedScores,
  type PairedScore,
  runningHighAt,
  scoreDay,
} from './calibration.js';
import { cityMarket } from './city-market.js';
import type { HighForecast } from './settlement.js';

/** The local hour the desk and the venues are scored at. */
const SCORED_HOUR = 12;

/** One bucket's YES price in a venue's snapshot. */
export interface SnapshotQuote {
  bucket_slug: string | null;
  bucket_label: string | null;
  yes_price: number | null;
}

/** What the cache holds of one settled city-day, in the market's unit: the inputs of its calibration. */
export interface SettledDay {
  city_id: string;
  local_date: string;
  unit: MarketUnit;
  /** The whole degree the day settled at, in the market's unit. */
  settled: number;
  /** The desk's forecast current at 12:00 local (`mu_c`, `sigma_c`); null when no usable one is cached. */
  forecast: HighForecast | null;
  /** The day's METAR readings, in °C. */
  readings: DayReading[];
  /** Each venue's newest snapshot at or before 12:00 local (absent: none cached). */
  noonQuotes: Record<string, SnapshotQuote[]>;
}

/** The desk against one venue in one city (or all cities), over the days both could be scored. */
export interface VenueCalibration {
  venue: string;
  days: number;
  desk: MeanScore;
  /** The venue's own prices, normalised by their sum. */
  prices: MeanScore;
}

export interface CityCalibration {
  city_id: string;
  unit: MarketUnit;
  settledDays: number;
  venues: VenueCalibration[];
  byHour: HourlyHits;
}

export interface CalibrationSummary {
  cities: CityCalibration[];
  /** Every city's days together. */
  all: { settledDays: number; venues: VenueCalibration[]; byHour: HourlyHits };
}

/** Bucket labels read once per summary: every day of a city repeats most of them. */
type LabelBook = Map<string, (Bucket & { unit: MarketUnit }) | null>;

/**
 * A venue's snapshot as a ladder of buckets in the day's unit, lowest first; null when a quote has no price or a
 * label of another shape or unit (the day is then not scored for that venue).
 */
function ladderOf(
  quotes: readonly SnapshotQuote[],
  unit: MarketUnit,
  labels: LabelBook = new Map(),
): { buckets: Bucket[]; prices: number[] } | null {
  const rows: { bucket: Bucket; price: number }[] = [];
  for (const q of quotes) {
    if (q.bucket_label === null || q.yes_price === null) return null;
    let parsed = labels.get(q.bucket_label);
    if (parsed === undefined) {
      parsed = parseBucketLabel(q.bucket_label);
      labels.set(q.bucket_label, parsed);
    }
    if (parsed === null || parsed.unit !== unit) return null;
    rows.push({ bucket: { ...parsed, slug: q.bucket_slug ?? '' }, price: q.yes_price });
  }
  rows.sort((a, b) => a.bucket.low - b.bucket.low);
  return { buckets: rows.map((r) => r.bucket), prices: rows.map((r) => r.price) };
}

/**
 * The desk against `venue` on one day, at 12:00 local, under the city's settlement rule (config `settlement`); null
 * when either side cannot be scored.
 */
function scoreAtNoon(
  day: SettledDay,
  venue: string,
  settlement: SettlementConfig = {},
  labels?: LabelBook,
): PairedScore | null {
  const quotes = day.noonQuotes[venue];
  if (!day.forecast || !quotes || quotes.length === 0) return null;
  const ladder = ladderOf(quotes, day.unit, labels);
  if (!ladder) return null;
  const market = cityMarket({ city_id: day.city_id }, settlement, day.unit);
  const high = runningHighAt(day.readings, SCORED_HOUR);
  return scoreDay(ladder.buckets, ladder.prices, market, day.forecast, high, day.settled);
}

/** One settled day's scores against each venue (null: not scored there). */
interface ScoredDay {
  day: SettledDay;
  scores: (PairedScore | null)[];
}

function venuesOf(days: readonly ScoredDay[], venues: readonly string[]): VenueCalibration[] {
  const out: VenueCalibration[] = [];
  venues.forEach((venue, i) => {
    const means = meanPairedScores(days.map((d) => d.scores[i] ?? null).filter((s): s is PairedScore => s !== null));
    if (means) out.push({ venue, days: means.days, desk: means.desk, prices: means.venue });
  });
  return out;
}

/** Per city (in city order) and for all cities together: Brier and log loss at 12:00, hits of the running high by hour. */
export function calibrationSummary(
  days: readonly SettledDay[],
  venues: readonly string[],
  settlement: SettlementConfig = {},
): CalibrationSummary {
  const labels: LabelBook = new Map();
  const scored = days.map((day) => ({ day, scores: venues.map((v) => scoreAtNoon(day, v, settlement, labels)) }));
  const byCity = new Map<string, ScoredDay[]>();
  for (const d of scored) {
    const list = byCity.get(d.day.city_id);
    if (list) list.push(d);
    else byCity.set(d.day.city_id, [d]);
  }
  const hours = (list: readonly ScoredDay[]) => hitsByHour(list.map((d) => d.day));
  const cities = [...byCity.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([city_id, list]) => ({
      city_id,
      unit: (list[0] as ScoredDay).day.unit,
      settledDays: list.length,
      venues: venuesOf(list, venues),
      byHour: hours(list),
    }));
  return { cities, all: { settledDays: days.length, venues: venuesOf(scored, venues), byHour: hours(scored) } };
}
