import { round } from './units.js';

/**
 * The book's realised P&L over time (issue 45 item 7): what settled positions made, by the day they settled, and the
 * running sum of it (the equity curve). A city-day's P&L leaves the board at its local midnight; this keeps it.
 *
 * One clock and one calendar for every figure: the service's clock (DESIGN 4 "the monitor's clock") and its UTC
 * date, the date the status bar shows. A position is realised at the instant its market settles (the local midnight
 * after its day, DESIGN 4), or, sold before that (an edge trade's exit), at its exit; the day it counts on is the UTC
 * date of that instant. So "today" is the positions realised since 00:00Z, whichever city they were of, and no day's
 * P&L moves when a city's own date turns.
 */

/** Positions of one kind, city-day and realised instant, and what they made. */
export interface RealisedPart {
  city_id: string;
  local_date: string;
  /** The instant they were realised (service's clock, ms). */
  realisedMs: number;
  pnl: number;
  /** How many positions. */
  n: number;
}

/** A settled day of the book: its UTC date, what was realised on it, and the running total through it. */
export interface EquityDay {
  date: string;
  pnl: number;
  n: number;
  /** Realised P&L of every day up to and including this one. */
  cumulative: number;
}

const DAY_MS = 86_400_000;
const utcDate = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/** The equity curve: each UTC date something was realised on, oldest first, with the cumulative realised P&L. */
export function bookEquity(parts: readonly RealisedPart[]): EquityDay[] {
  const byDate = new Map<string, { pnl: number; n: number }>();
  for (const p of parts) {
    const date = utcDate(p.realisedMs);
    const day = byDate.get(date) ?? { pnl: 0, n: 0 };
    day.pnl += p.pnl;
    day.n += p.n;
    byDate.set(date, day);
  }
  let cumulative = 0;
  return [...byDate.entries()]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([date, d]) => {
      // summed unrounded and rounded once a figure: the curve ends at exactly the all-time total
      cumulative += d.pnl;
      return { date, pnl: round(d.pnl), n: d.n, cumulative: round(cumulative) };
    });
}

/** The UTC date the week of `ms` begins on: its Monday (ISO 8601 weeks, as a trading week begins). */
export function weekStart(ms: number): string {
  const day = new Date(ms).getUTCDay(); // 0 Sunday .. 6 Saturday
  const sinceMonday = (day + 6) % 7;
  return utcDate(ms - sinceMonday * DAY_MS);
}

/** Realised P&L of a span: its sum and how many positions. */
export interface RealisedSpan {
  pnl: number;
  n: number;
}

/** Realised P&L today (the UTC date of `nowMs`), this week (from its Monday) and all time, from the equity curve. */
export function pnlOverTime(
  days: readonly EquityDay[],
  nowMs: number,
): { today: RealisedSpan; week: RealisedSpan; all: RealisedSpan } {
  const today = utcDate(nowMs);
  const monday = weekStart(nowMs);
  const sum = (keep: (d: EquityDay) => boolean): RealisedSpan => {
    const kept = days.filter(keep);
    return { pnl: round(kept.reduce((s, d) => s + d.pnl, 0)), n: kept.reduce((s, d) => s + d.n, 0) };
  };
  return {
    today: sum((d) => d.date === today),
    // up to today: a day after the clock's (a cache ahead of a clock that went back) is in no week of now
    week: sum((d) => d.date >= monday && d.date <= today),
    all: sum(() => true),
  };
}
