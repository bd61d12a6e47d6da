import type { SettledDay, SnapshotQuote } from '../../domain/calibration-summary.js';
import { instantAtLocal, localDate, localHour } from '../../domain/city-time.js';
import { highForecastOf } from '../../domain/desk-forecast.js';
import { usableForecast } from '../../domain/settlement.js';
import type { CountedQueries } from '../db/counted-queries.js';
import type { Venue } from '../market/day-reads.js';
import type { BrowseFilter } from './browse-filter.js';
import { j, num, placesOf, rowsIn, settledCityDays, text } from './settled-days.js';

const HOUR = 3_600_000;
/** Without a start date the calibration covers the newest this many local dates with a settled day. */
export const CALIBRATION_DATES = 30;
/** The desk publishes every hour: a forecast older than this at 12:00 is not the one current then. */
const FORECAST_LOOKBACK = 3 * HOUR;
/** The venues snapshot every hour: the price at 12:00 is the newest snapshot of the hour before. */
const QUOTE_LOOKBACK = HOUR;

/** A settled city-day and the instants it is read at. */
interface Day extends SettledDay {
  tz: string;
  startMs: number;
  endMs: number;
  noonMs: number;
}

/** The settled days the calibration covers, each with nothing read for it yet. */
function settledDays(q: CountedQueries, filter: BrowseFilter): Day[] {
  return settledCityDays(q, filter, placesOf(q, filter.cityId), CALIBRATION_DATES).map((d) => ({
    ...d,
    forecast: null,
    readings: [],
    noonQuotes: {},
    noonMs: instantAtLocal(d.local_date, 12, 0, d.tz),
  }));
}

/** Every METAR reading of each settled day, on its local clock, in °C (the whole degrees the venue settles on). */
function addReadings(q: CountedQueries, days: Day[], byKey: Map<string, Day>): void {
  // one number a reading: only it is read out of the JSON
  const rows = rowsIn<{ t: number; city_id: string; value: unknown }, Day>(
    q,
    'metar_observations_history',
    `coalesce(${j('temp_c')}, (${j('temp_f')} - 32) * 5.0 / 9) AS value`,
    days,
    (d) => [[d.startMs, d.endMs - 1]],
  );
  let d: Day | undefined;
  const tzOf = new Map(days.map((day) => [day.city_id, day.tz]));
  for (const r of rows) {
    // rows come a city at a time, in time order: the day of the last reading usually holds the next one
    if (!d || d.city_id !== r.city_id || r.t < d.startMs || r.t >= d.endMs) {
      const tz = tzOf.get(r.city_id);
      d = tz === undefined ? undefined : byKey.get(`${r.city_id}|${localDate(r.t, tz)}`);
      if (!d || r.t < d.startMs || r.t >= d.endMs) continue;
    }
    const v = num(r.value);
    if (v !== null) d.readings.push({ hour: localHour(r.t, d.tz), value: v });
  }
}

/**
 * The desk's forecast current at 12:00 local: its newest `forecast_history` row for the day by then, as DESIGN 4
 * prices it (the `_c` aliases), when usable.
 */
function addForecasts(q: CountedQueries, days: Day[], byKey: Map<string, Day>): void {
  const rows = rowsIn<{ t: number; city_id: string; local_date: unknown } & Record<string, unknown>, Day>(
    q,
    'forecast_history',
    `${j('local_date')} AS local_date, ${j('predicted_max_c')} AS mu_c, ${j('sigma_c')} AS sigma_c`,
    days,
    (d) => [[d.noonMs - FORECAST_LOOKBACK, d.noonMs]],
  );
  const at = new Map<Day, number>();
  for (const r of rows) {
    const d = byKey.get(`${r.city_id}|${text(r.local_date)}`);
    if (!d || r.t > d.noonMs || r.t < d.noonMs - FORECAST_LOOKBACK || (at.get(d) ?? -1) > r.t) continue;
    const forecast = usableForecast(
      highForecastOf({ predicted_max_c: r.mu_c as number, sigma_c: r.sigma_c as number }),
    );
    if (forecast === null) continue;
    d.forecast = forecast;
    at.set(d, r.t);
  }
}

/** Each venue's newest snapshot of the day's buckets at or before 12:00 local (one row a bucket, the newest id). */
function addQuotes(q: CountedQueries, venue: Venue, days: Day[], byKey: Map<string, Day>): void {
  const rows = rowsIn<{ t: number; city_id: string; rid: number; local_date: unknown } & Record<string, unknown>, Day>(
    q,
    `${venue}_buckets_history`,
    `rid, ${j('local_date')} AS local_date, ${j('bucket_slug')} AS slug, ${j('bucket_label')} AS label,
     ${j('yes_price')} AS yes_price`,
    days,
    (d) => [[d.noonMs - QUOTE_LOOKBACK + 1, d.noonMs]],
  );
  const snapshots = new Map<Day, { t: number; quotes: Map<string, SnapshotQuote & { rid: number }> }>();
  for (const r of rows) {
    const d = byKey.get(`${r.city_id}|${text(r.local_date)}`);
    if (!d || r.t > d.noonMs || r.t <= d.noonMs - QUOTE_LOOKBACK) continue;
    let snap = snapshots.get(d);
    if (snap && snap.t > r.t) continue;
    if (!snap || snap.t < r.t) {
      snap = { t: r.t, quotes: new Map() };
      snapshots.set(d, snap);
    }
    const quote = { bucket_slug: text(r.slug), bucket_label: text(r.label), yes_price: num(r.yes_price), rid: r.rid };
    const key = quote.bucket_slug ?? quote.bucket_label ?? `#${r.rid}`;
    const held = snap.quotes.get(key);
    if (!held || held.rid > r.rid) snap.quotes.set(key, quote);
  }
  // in id order: the order the venue lists its buckets in
  for (const [d, snap] of snapshots)
    d.noonQuotes[venue] = [...snap.quotes.values()]
      .sort((a, b) => b.rid - a.rid)
      .map(({ rid: _rid, ...quote }) => quote);
}

/**
 * What the calibration of the History pane's summaries is computed from (domain/calibration-summary.ts): each settled
 * city-day the filter matches (without a start date, the newest `CALIBRATION_DATES` dates), its METAR readings, the
 * desk's forecast and each venue's prices at 12:00 local. Every read is bounded by the settled days' own hours.
 *
 * `known` holds days read before (the caller keeps it while its view is open): a day found there, settled at the same
 * value, is not read again, so a re-read after a change costs the settled days' list and the days newly settled.
 */
export function calibrationDays(
  q: CountedQueries,
  filter: BrowseFilter,
  venues: readonly Venue[],
  known?: Map<string, SettledDay>,
): SettledDay[] {
  const days = settledDays(q, filter);
  const key = (d: { city_id: string; local_date: string }) => `${d.city_id}|${d.local_date}`;
  const fresh = days.filter((d) => known?.get(key(d))?.settled !== d.settled);
  if (fresh.length > 0) {
    const byKey = new Map<string, Day>();
    for (const d of fresh) byKey.set(key(d), d);
    addReadings(q, fresh, byKey);
    addForecasts(q, fresh, byKey);
    for (const venue of venues) addQuotes(q, venue, fresh, byKey);
    for (const { tz: _tz, startMs: _s, endMs: _e, noonMs: _n, ...day } of fresh) known?.set(key(day), day);
  }
  return days.map((d) => {
    const { tz: _tz, startMs: _s, endMs: _e, noonMs: _n, ...day } = d;
    return known?.get(key(d)) ?? day;
  });
}
