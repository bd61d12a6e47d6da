import { parseBucketLabel } from '../src/domain/bucket-label.js';
import type { Bucket } from '../src/domain/buckets.js';
import { instantAtLocal, isoUtc, localDate, localHour } from '../src/domain/city-time.js';
import { bucketProbability, effectiveEdge } from '../src/domain/settlement.js';
import type { RecordFigure } from './world-record.js';

/**
 * DESIGN 5's figures of a world, read as a client reads them: through the v1 API of a running reference service
 * (and the insurance events it queued for webhooks). `test/server/world-believable.test.ts` holds them to DESIGN 5's
 * bands; `npm run bench -- world` prints them for docs/world.md.
 */

/** GET a path of the API (after `/api/public/v1`) and return the parsed body; throws on anything but 200. */
export type ApiGet = (path: string) => Promise<any>;

/** An insurance event as queued for delivery: its type and when it happened. */
export interface WorldEvent {
  event_type: string;
  created_at: string;
}

/**
 * The local hour bands the desk is measured in: whole local hours `from`..`to` of the forecast's `fetched_at`, from
 * midnight into the peak (14:00-15:59: the earliest city's day passes at 16:00, Miami's peak hour 14 + 2 h, and from
 * then on its desk forecasts the next day, forecast.ts). The desk sharpens as readings come in, so its error falls
 * band to band. Its sigma is held to DESIGN 5's 0.60-0.76 where the day is still uncertain (`uncertain`): through the
 * peak most days' high is a whole degree already read, their error 0 or a whole degree, and an honest sigma covers
 * more of them within sqrt(sigma^2 + 1/12) than a normal's 68%.
 */
export const HOUR_BANDS = [
  { from: 0, to: 2, uncertain: true },
  { from: 3, to: 5, uncertain: true },
  { from: 6, to: 8, uncertain: true },
  { from: 9, to: 10, uncertain: true },
  { from: 11, to: 13, uncertain: true },
  { from: 14, to: 15, uncertain: false },
] as const;
export const bandName = (band: { from: number; to: number }): string =>
  `${String(band.from).padStart(2, '0')}-${String(band.to).padStart(2, '0')}`;

/**
 * The local hours the best-edge distribution is read at (the board as of HH:00): one before dawn (a monitor left
 * running overnight shows its edges too) and three of the trading day.
 */
export const EDGE_HOURS = [5, 10, 12, 14] as const;
/** The first of `EDGE_HOURS` in the trading day (DESIGN 4's record: 09:00-16:00). */
const TRADING_FROM = 9;
export const VENUES = ['mkta', 'mktb'] as const;
const FAMILIES = ['no24', 'yescore', 'svc-max-picks'] as const;
const MIN_DECILE_QUOTES = 50;
const HOUR = 3_600_000;
const WINDOW = 48 * HOUR;

export interface DeskBand {
  band: string;
  n: number;
  rmseC: number;
  /** Share of settled highs within the published sigma widened by the rounding: sqrt(sigma_c^2 + 1/12). */
  withinSigma: number;
  meanSigmaC: number;
}

export interface Decile {
  decile: number;
  n: number;
  meanPrice: number;
  wonShare: number;
  /** max(0.10, 3 SE): how far the won share may be from the mean price. */
  bound: number;
}

export interface Book {
  name: string;
  n: number;
  stake: number;
  pnl: number;
  wins: number;
}

export interface EdgeCell {
  unit: 'C' | 'F';
  hour: number;
  n: number;
  median: number;
  p90: number;
}

export interface WorldFigures {
  days: number;
  desk: DeskBand[];
  yescore: { n: number; hitRate: number };
  favouriteAtNoon: Record<string, { n: number; median: number }>;
  insurance: {
    kills: number;
    addons: number;
    minKills48h: number;
    minAddons48h: number;
    /** The longest a trader starting at some half hour of the 30 days waits for the next kill, hours. */
    longestWaitForKillH: number;
    /** Share of the half-hour start instants with a kill within 20 simulated hours (the demo's 10 minutes at x120). */
    killWithin20h: number;
  };
  deciles: Record<string, Decile[]>;
  overround: Record<string, number>;
  books: Book[];
  bestEdge: EdgeCell[];
  /**
   * What the venues' departures from the board tell of the outcome over the trading hours of `EDGE_HOURS`: the slope of
   * (won - p) on (venue mid - p) through the origin, p the board's probability of each bucket. 0: a departure is noise
   * (following the board wins it back); 1: the venue's price is the better probability.
   */
  departureSlope: number;
  /** The board's record (DESIGN 4) of a monitor cache synced from the service: bench/world-record.ts. */
  record: RecordFigure;
}

/** Every page of a keyset-paged list. */
export async function drain(get: ApiGet, path: string, limit = 1000): Promise<any[]> {
  const rows: any[] = [];
  let cursor: string | number | null = null;
  do {
    const sep = path.includes('?') ? '&' : '?';
    const page: any = await get(`${path}${sep}limit=${limit}${cursor === null ? '' : `&cursor=${cursor}`}`);
    rows.push(...page.data);
    cursor = page.next_cursor;
  } while (cursor !== null);
  return rows;
}

const quantile = (sorted: readonly number[], q: number): number =>
  sorted.length === 0 ? Number.NaN : (sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] as number);
const median = (values: readonly number[]): number =>
  quantile(
    [...values].sort((a, b) => a - b),
    0.5,
  );

interface Day {
  city: string;
  date: string;
  tz: string;
  unit: 'C' | 'F';
  actualC: number;
  winner: string;
}

/**
 * Reads every figure of DESIGN 5 from the API; `events` are the insurance events the service queued, `record` the
 * board's record of a monitor synced from it (world-record.ts: the monitor's own code, not a copy of its rule).
 */
export async function worldFigures(
  get: ApiGet,
  events: readonly WorldEvent[],
  record: RecordFigure,
): Promise<WorldFigures> {
  const cities: any[] = (await get('/cities')).data;
  const zone = new Map(cities.map((c) => [c.city_id as string, c.tz as string]));
  const days = new Map<string, Day>();
  for (const row of await drain(get, '/historical/model_forecasts_daily')) {
    if (row.model !== 'svc_pro') continue;
    days.set(`${row.city_id}|${row.local_date}`, {
      city: row.city_id,
      date: row.local_date,
      tz: zone.get(row.city_id) as string,
      unit: row.unit,
      actualC: row.actual_max_c,
      winner: row.actual_bucket_slug,
    });
  }
  const forecasts = await drain(get, '/historical/forecast_history');
  const quotes = Object.fromEntries(
    await Promise.all(VENUES.map(async (v) => [v, await drain(get, `/historical/${v}_buckets_history`)] as const)),
  ) as Record<(typeof VENUES)[number], any[]>;
  const metar = await drain(get, '/historical/metar_observations_history');

  // the days the figures speak of: settled days with the desk's forecasts from midnight on
  const firstForecast = Math.min(...forecasts.map((f) => Date.parse(f.fetched_at)));
  const settled = [...days.values()].filter((d) => instantAtLocal(d.date, 0, 0, d.tz) >= firstForecast);

  return {
    days: new Set(settled.map((d) => d.date)).size,
    desk: deskBands(settled, forecasts),
    yescore: yescoreHits(await get('/yescore?status=resolved&limit=1000')),
    favouriteAtNoon: favourites(settled, quotes),
    insurance: insurance(events, firstForecast),
    ...calibration(settled, quotes),
    books: await books(get),
    ...bestEdges(settled, forecasts, quotes, metar),
    record,
  };
}

/**
 * Whether a forecast was fetched on its own day's local date: the desk's forecasts of a day from its midnight on. Once
 * a city's day has passed its peak the desk forecasts the next day (forecast.ts), whose band is the day ahead, not one
 * of the hours of that day.
 */
const fetchedOnItsDay = (f: any, tz: string): boolean => localDate(Date.parse(f.fetched_at), tz) === f.local_date;

function deskBands(settled: readonly Day[], forecasts: readonly any[]): DeskBand[] {
  const byDay = new Map(settled.map((d) => [`${d.city}|${d.date}`, d]));
  const sums = HOUR_BANDS.map(() => ({ n: 0, squares: 0, within: 0, sigma: 0 }));
  for (const f of forecasts) {
    const day = byDay.get(`${f.city_id}|${f.local_date}`);
    if (!day || !fetchedOnItsDay(f, day.tz)) continue;
    const hour = Math.floor(localHour(Date.parse(f.fetched_at), day.tz));
    const i = HOUR_BANDS.findIndex((b) => hour >= b.from && hour <= b.to);
    const sum = sums[i];
    if (!sum) continue;
    const error = f.predicted_max_c - day.actualC;
    sum.n++;
    sum.squares += error ** 2;
    sum.within += Math.abs(error) <= Math.sqrt(f.sigma_c ** 2 + 1 / 12) ? 1 : 0;
    sum.sigma += f.sigma_c;
  }
  return HOUR_BANDS.map((band, i) => {
    const s = sums[i] as (typeof sums)[number];
    return {
      band: bandName(band),
      n: s.n,
      rmseC: Math.sqrt(s.squares / s.n),
      withinSigma: s.within / s.n,
      meanSigmaC: s.sigma / s.n,
    };
  });
}

function yescoreHits(page: any): { n: number; hitRate: number } {
  const records: any[] = page.data;
  return { n: records.length, hitRate: records.filter((r) => r.outcome === 'win').length / records.length };
}

/** The newest snapshot of each venue at a local hour of each settled day: `venue|city|date|hour` -> its rows. */
function snapshotsAt(settled: readonly Day[], quotes: Record<string, any[]>, hours: readonly number[]) {
  const wanted = new Map<string, string>();
  for (const d of settled)
    for (const h of hours) wanted.set(`${d.city}|${isoUtc(instantAtLocal(d.date, h, 0, d.tz))}`, `${d.date}|${h}`);
  const at = new Map<string, any[]>();
  for (const [venue, rows] of Object.entries(quotes)) {
    for (const row of rows) {
      const key = wanted.get(`${row.city_id}|${row.snapshot_at}`);
      if (key === undefined || !key.startsWith(row.local_date)) continue;
      const id = `${venue}|${row.city_id}|${key}`;
      at.set(id, [...(at.get(id) ?? []), row]);
    }
  }
  return at;
}

function favourites(settled: readonly Day[], quotes: Record<string, any[]>): WorldFigures['favouriteAtNoon'] {
  const noon = snapshotsAt(settled, quotes, [12]);
  return Object.fromEntries(
    VENUES.map((venue) => {
      const tops = settled
        .map((d) => noon.get(`${venue}|${d.city}|${d.date}|12`))
        .filter((rows): rows is any[] => rows !== undefined)
        .map((rows) => Math.max(...rows.map((r) => r.yes_price)));
      return [venue, { n: tops.length, median: median(tops) }];
    }),
  );
}

/**
 * Kills and addons in the fewest of any 48 hours, the window sliding by half an hour from `fromMs`; and how long a
 * trader starting at any of those half hours waits for the next kill.
 */
function insurance(events: readonly WorldEvent[], fromMs: number): WorldFigures['insurance'] {
  const times = (type: string) =>
    events
      .filter((e) => e.event_type === type)
      .map((e) => Date.parse(e.created_at))
      .sort((a, b) => a - b);
  const kills = times('insurance.pick.killed');
  const addons = times('insurance.addon.created');
  const last = Math.max(...events.map((e) => Date.parse(e.created_at)));
  const starts: number[] = [];
  for (let from = fromMs; from + WINDOW <= last; from += HOUR / 2) starts.push(from);
  const fewest = (at: number[]) =>
    Math.min(...starts.map((from) => at.filter((t) => t >= from && t < from + WINDOW).length));
  const waits = starts.map((from) => (kills.find((t) => t >= from) ?? Number.POSITIVE_INFINITY) - from);
  return {
    kills: kills.length,
    addons: addons.length,
    minKills48h: fewest(kills),
    minAddons48h: fewest(addons),
    longestWaitForKillH: Math.max(...waits) / HOUR,
    killWithin20h: waits.filter((w) => w <= 20 * HOUR).length / waits.length,
  };
}

function calibration(
  settled: readonly Day[],
  quotes: Record<string, any[]>,
): Pick<WorldFigures, 'deciles' | 'overround'> {
  const noon = snapshotsAt(settled, quotes, [12]);
  const deciles: Record<string, Decile[]> = {};
  const overround: Record<string, number> = {};
  for (const venue of VENUES) {
    const sums = Array.from({ length: 10 }, () => ({ n: 0, price: 0, won: 0 }));
    let total = 0;
    let quoted = 0;
    for (const d of settled) {
      for (const row of noon.get(`${venue}|${d.city}|${d.date}|12`) ?? []) {
        const sum = sums[Math.min(9, Math.floor(row.yes_price * 10))] as (typeof sums)[number];
        sum.n++;
        sum.price += row.yes_price;
        sum.won += row.bucket_slug === d.winner ? 1 : 0;
        total += row.yes_price + row.no_price;
        quoted++;
      }
    }
    overround[venue] = total / quoted;
    deciles[venue] = sums.map((s, decile) => {
      const meanPrice = s.n === 0 ? 0 : s.price / s.n;
      return {
        decile,
        n: s.n,
        meanPrice,
        wonShare: s.n === 0 ? 0 : s.won / s.n,
        bound: Math.max(0.1, 3 * Math.sqrt((meanPrice * (1 - meanPrice)) / Math.max(1, s.n))),
      };
    });
  }
  return { deciles, overround };
}

/** Whether a decile holds enough quotes to be held to its bound. */
export const checkedDecile = (d: Decile): boolean => d.n >= MIN_DECILE_QUOTES;

async function books(get: ApiGet): Promise<Book[]> {
  const out: Book[] = [];
  for (const family of FAMILIES) {
    const records: any[] = (await get(`/${family}?status=resolved&limit=1000`)).data;
    out.push({
      name: family,
      n: records.length,
      stake: records.reduce((s, r) => s + r.stake, 0),
      pnl: records.reduce((s, r) => s + r.stake * r.roi, 0),
      wins: records.filter((r) => r.outcome === 'win').length,
    });
  }
  const locks = (await drain(get, '/fusion-locks', 500)).filter((l) => l.resolved);
  out.push({
    name: 'fusion locks',
    n: locks.length,
    stake: locks.reduce((s, l) => s + l.tokens * l.yes_price, 0),
    pnl: locks.reduce((s, l) => s + l.pnl_usd, 0),
    wins: locks.filter((l) => l.hit).length,
  });
  const edge = await drain(get, '/historical/edge_resolved');
  out.push({
    name: 'edge engine',
    n: edge.length,
    stake: edge.reduce((s, e) => s + e.entry_price * e.qty, 0),
    pnl: edge.reduce((s, e) => s + e.pnl_usd, 0),
    wins: edge.filter((e) => e.pnl_usd > 0).length,
  });
  return out;
}

/**
 * The best effective edge a board row shows at HH:00 local (DESIGN 4): the desk's forecast current at that hour, the
 * running METAR high so far that day, each venue's newest snapshot at or before it; the largest edge of any side of
 * any bucket on either venue.
 */
function bestEdges(
  settled: readonly Day[],
  forecasts: readonly any[],
  quotes: Record<string, any[]>,
  metar: readonly any[],
): Pick<WorldFigures, 'bestEdge' | 'departureSlope'> {
  const snapshots = snapshotsAt(settled, quotes, EDGE_HOURS);
  const slope = { num: 0, den: 0 };
  const forecastsOf = groupBy(forecasts, (f) => `${f.city_id}|${f.local_date}`);
  const readingsOf = groupBy(metar, (r) => `${r.city_id}|${r.local_date}`);
  const cells = new Map<string, number[]>();
  for (const d of settled) {
    for (const hour of EDGE_HOURS) {
      const at = instantAtLocal(d.date, hour, 0, d.tz);
      const newest = (forecastsOf.get(`${d.city}|${d.date}`) ?? [])
        .filter((f) => Date.parse(f.fetched_at) <= at && fetchedOnItsDay(f, d.tz))
        .reduce<any>((a, b) => (a === null || b.fetched_at > a.fetched_at ? b : a), null);
      if (newest === null) continue;
      const readings = (readingsOf.get(`${d.city}|${d.date}`) ?? []).filter((r) => Date.parse(r.observed_at) <= at);
      const running = readings.length === 0 ? null : Math.max(...readings.map((r) => r.temp_c as number));
      const forecast = { muC: newest.predicted_max_c, sigmaC: newest.sigma_c };
      let best = Number.NEGATIVE_INFINITY;
      for (const venue of VENUES) {
        for (const row of snapshots.get(`${venue}|${d.city}|${d.date}|${hour}`) ?? []) {
          const bucket = parseBucketLabel(row.bucket_label, row.bucket_slug) as Bucket;
          const p = bucketProbability(bucket, { unit: d.unit, rule: 'metar_c' }, forecast, running);
          if (p === null) continue;
          const edge = effectiveEdge(p, row.yes_price, row.no_price);
          best = Math.max(best, edge.yes, edge.no);
          if (hour < TRADING_FROM) continue;
          // the venue's mid: its YES price less half its overround
          const departure = row.yes_price - (row.yes_price + row.no_price - 1) / 2 - p;
          slope.num += departure * ((row.bucket_slug === d.winner ? 1 : 0) - p);
          slope.den += departure ** 2;
        }
      }
      if (best === Number.NEGATIVE_INFINITY) continue;
      const key = `${d.unit}|${hour}`;
      cells.set(key, [...(cells.get(key) ?? []), best]);
    }
  }
  const out: EdgeCell[] = [];
  for (const unit of ['C', 'F'] as const) {
    for (const hour of EDGE_HOURS) {
      const values = (cells.get(`${unit}|${hour}`) ?? []).sort((a, b) => a - b);
      out.push({ unit, hour, n: values.length, median: quantile(values, 0.5), p90: quantile(values, 0.9) });
    }
  }
  return { bestEdge: out, departureSlope: slope.num / slope.den };
}

function groupBy<T>(rows: readonly T[], key: (row: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const row of rows) {
    const k = key(row);
    const list = out.get(k);
    if (list) list.push(row);
    else out.set(k, [row]);
  }
  return out;
}
