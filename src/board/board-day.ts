import type { MarketUnit } from '../contract/common.js';
import { type Breakthrough, breakthroughOf } from '../domain/breakthrough.js';
import { localDay, zoneOffsetMs } from '../domain/city-time.js';
import { type DayPhase, dayPhase } from '../domain/day-phase.js';
import { forecastIn } from '../domain/desk-forecast.js';
import { deltaFToC, toMarketUnit } from '../domain/units.js';
import type { MarketDay } from './market-day.js';
import { type PricedDay, priceDay, pricingOf } from './priced-day.js';
import { dayOutcome, settleDay } from './settled-day.js';

/** A city's market day as the board shows it, worked out from what the cache holds of it (market-day.ts). */
export interface BoardDay extends PricedDay {
  cityId: string;
  name: string;
  tz: string;
  date: string;
  /** `HH:MM` in the city at the instant, and the minutes since its midnight (to sort by). */
  localTime: string;
  localMinutes: number;
  /**
   * The city's date at the instant less the market day, in days: -1 the evening before a day that has not begun (a
   * US day while Europe trades), +1 after its midnight (a replay pinned to the day), 0 on the day itself.
   */
  dayOffset: number;
  phase: DayPhase;
  unit: MarketUnit;
  /** `svc_pro_forecast`'s mean and sigma in the market's unit, for the eye (priced on the `_c` aliases). */
  shown: { mu: number; sigma: number } | null;
  /** The spread of the models' Tmax (`model_tmax_range`), in the market's unit. */
  spread: number | null;
  /** The running high in the market's unit: its whole °C, converted in a °F market. */
  runningHigh: number | null;
  /** The warmest model's Tmax of the day's newest range, in the market's unit. */
  modelsMax: number | null;
  /**
   * BREAKTHROUGH (DESIGN 4): a reading's least true high was above the warmest model published by then. From that
   * reading's instant on; `breakthroughAt` says which reading and against which model (domain/breakthrough.ts).
   */
  breakthrough: boolean;
  breakthroughAt: Breakthrough | null;
  /**
   * The whole degree (market unit) the day settled at, once it is over (settled-day.ts): then its buckets show the
   * outcome, not the forecast. Null while it runs, or when the cache holds neither its lock's nor its METAR's high.
   */
  settled: number | null;
}

const MINUTE = 60_000;
const DAY = 86_400_000;

/** The wall clock of a zone at an instant: `HH:MM`, minutes since midnight, and the local date (as its UTC midnight). */
export function localClockOf(atMs: number, tz: string): { text: string; minutes: number; dateMs: number } {
  const local = atMs + zoneOffsetMs(tz, atMs);
  const dateMs = Math.floor(local / DAY) * DAY;
  const minutes = Math.floor((local - dateMs) / MINUTE);
  const two = (n: number) => String(n).padStart(2, '0');
  return { text: `${two(Math.floor(minutes / 60))}:${two(minutes % 60)}`, minutes, dateMs };
}

/**
 * A market day's buckets priced (settled, once the day is over), its phase, running high, `next` and flags' grounds:
 * one computation for every reader.
 */
export function boardDay(day: MarketDay): BoardDay {
  const { city, market, primary, range } = day;
  const unit = market.unit;
  const forecast = priceDay(
    pricingOf({
      market,
      desk: primary,
      high: day.metar.high,
      mkta: day.mkta,
      mktb: day.mktb,
      modelKnownUntilMs: day.modelKnownUntilMs,
      comparable: day.comparable ?? null,
      venueHeldUntilMs: day.venueHeldUntilMs ?? null,
    }),
  );
  // a day over shows its outcome (settled-day.ts)
  const settled = dayOutcome(day);
  const priced = settled === null ? forecast : settleDay(forecast, settled);
  const { runningHighC } = priced;
  const runningHigh = runningHighC === null ? null : toMarketUnit(runningHighC, unit);
  const modelsMax = range ? (unit === 'F' ? range.tmax_max_f : range.tmax_max_c) : null;
  // judged on the readings and the models as they were at each: the same live, replayed and settled
  const breakthroughAt = breakthroughOf(day.highs, unit);
  const clock = localClockOf(day.atMs, city.tz);
  return {
    ...priced,
    cityId: city.city_id,
    name: city.city_name,
    tz: city.tz,
    date: day.date,
    localTime: clock.text,
    localMinutes: clock.minutes,
    dayOffset: Math.round((clock.dateMs - Date.parse(`${day.date}T00:00:00Z`)) / DAY),
    phase: dayPhase(
      day.atMs,
      city.tz,
      day.lock ? { peakHour: day.lock.peak_hour, resolved: day.lock.resolved } : null,
      localDay(day.date, city.tz),
    ),
    unit,
    shown: forecastIn(primary, unit),
    // a range without its spread (the contract's alias missing from a row) shows none, never undefined
    spread: typeof range?.spread_f === 'number' ? (unit === 'F' ? range.spread_f : deltaFToC(range.spread_f)) : null,
    runningHigh,
    modelsMax,
    breakthrough: breakthroughAt !== null,
    breakthroughAt,
    settled,
  };
}
