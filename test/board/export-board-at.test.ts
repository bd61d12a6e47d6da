import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEMPLATE_START } from '../helpers/world-template.js';
import { atPrecision, bestEdgeCandidate, degreesIn, designP, halfUp, localDay, readLabel } from './design-rules.js';
import { BOARD_CITY_FIELDS } from './fixtures.js';
import { type WorldBoard, worldBoard } from './world-board.js';

/**
 * `svc-monitor export board --at` against the real reference service: a real sync into a temp cache (its live history
 * streams, and `forecast_history` backfilled: the polls hold only the desk's newest run), then the built CLI, its wall
 * clock at the world's instant (world-clock.mjs), as of an instant 5 h 17 min before it. Every figure is worked out
 * here from the API's own rows up to that instant (design-rules.ts: DESIGN 4 from its words), none written in.
 */
const HOUR = 3_600_000;
const AT = TEMPLATE_START - 5 * HOUR - 17 * 60_000;
let world: WorldBoard;

beforeAll(async () => {
  world = await worldBoard('export-board-at', { backfillSince: AT - 2 * 24 * HOUR });
});
afterAll(() => world?.close());

const exportBoard = (...args: string[]) => world.exportBoard(...args);
const history = (table: string, cityId: string, since: number, until: number) =>
  world.history(table, cityId, since, until);

const newestBy = <T extends Record<string, any>>(rows: T[], field: string): T | undefined =>
  rows.reduce<T | undefined>((a, r) => (!a || Date.parse(r[field]) > Date.parse(a[field]) ? r : a), undefined);

/** A city of the board as of AT, from the API's rows up to AT and DESIGN 3 and 4's words. */
async function expectedCity(city: {
  city_id: string;
  city_name: string;
  tz: string;
  country: string;
}): Promise<Record<string, any>> {
  const { date, startMs } = localDay(city.tz, AT);
  const clock = new Intl.DateTimeFormat('en-GB', { timeZone: city.tz, hour: '2-digit', minute: '2-digit' });
  const localTime = clock.format(new Date(AT));
  const hour = Number(localTime.slice(0, 2));
  // the desk's newest run by then (the polls are all later: the sync ran at the world's instant); for this day only
  const run = newestBy(await history('forecast_history', city.city_id, AT - 24 * HOUR, AT), 'fetched_at');
  const desk = run && run.local_date === date ? { mu: run.predicted_max_c, sigma: run.sigma_c } : null;
  const unit = ['US', 'GB'].includes(city.country) ? 'F' : 'C';
  // in the market's unit, the run's own aliases
  const shown = run && desk && (unit === 'F' ? { mu: run.predicted_max_f, sigma: run.sigma_f } : desk);
  // the running high: the highest whole °C of the day's METAR reports by then
  const readings = (await history('metar_observations_history', city.city_id, startMs, AT)).map((m) => m.temp_c);
  const r = readings.length ? halfUp(Math.max(...readings)) : null;
  // each venue's newest snapshot of the day by then
  const snapshots: Record<string, Record<string, any>[]> = {};
  for (const venue of ['mkta', 'mktb']) {
    const rows = (await history(`${venue}_buckets_history`, city.city_id, startMs - 24 * HOUR, AT)).filter(
      (q) => q.local_date === date,
    );
    const newest = newestBy(rows, 'snapshot_at')?.snapshot_at;
    snapshots[venue] = rows.filter((q) => q.snapshot_at === newest);
  }
  // the day's lock, if made by then: unresolved before its day is over, which AT is not
  const locks = (await world.svc.get(`/fusion-locks?city_id=${city.city_id}&limit=500`)).body.data as Record<
    string,
    any
  >[];
  const lock = locks.find((l) => l.local_date === date && Date.parse(l.locked_at) <= AT);
  const phase = hour < 10 ? 'early' : !lock || hour < lock.peak_hour + 2 ? 'peak' : 'passed';
  // the models' range is polled (the sync's, after the instant): as of it, each model's own forecast of the day in
  // model_forecasts_daily (its newest row a model; the blends are not models), highest minus lowest in °F
  const blends = ['svc_pro', 'edge_ensemble', 'model_mean'];
  const dayRows = (await world.history('model_forecasts_daily', city.city_id, date)).filter(
    (m) => m.local_date === date && !blends.includes(m.model),
  );
  const models = new Map<string, number>();
  for (const m of dayRows.sort((a, b) => b.id - a.id)) if (!models.has(m.model)) models.set(m.model, m.predicted_max_f);
  const highs = [...models.values()];
  const spreadF = highs.length ? Math.max(...highs) - Math.min(...highs) : null;
  const spread = spreadF === null ? null : atPrecision(unit === 'F' ? spreadF : (spreadF * 5) / 9, 2);

  const labels = new Map<string, string>();
  for (const q of [...(snapshots.mkta ?? []), ...(snapshots.mktb ?? [])]) labels.set(q.bucket_slug, q.bucket_label);
  const edges: { venue: string; bucket_slug: string; side: string; price: number; edge: number }[] = [];
  const buckets = [...labels]
    .map(([slug, label]) => ({ slug, label, own: readLabel(label) as NonNullable<ReturnType<typeof readLabel>> }))
    .sort((a, b) => (a.own.low ?? -1000) - (b.own.low ?? -1000))
    .map(({ slug, label, own }) => {
      const p = desk ? designP(label, desk.mu, desk.sigma, r) : null;
      const quotes: Record<string, unknown> = {};
      for (const venue of ['mkta', 'mktb']) {
        const q = snapshots[venue]?.find((x) => x.bucket_slug === slug);
        quotes[venue] = q ? { yes_price: q.yes_price, no_price: q.no_price, snapshot_at: q.snapshot_at } : null;
        if (!q || p === null) continue;
        // DESIGN 4's effective edge: cost half the overround, never under a cent
        const cost = Math.max(0.01, (q.yes_price + q.no_price - 1) / 2);
        edges.push({ venue, bucket_slug: slug, side: 'YES', price: q.yes_price, edge: p - q.yes_price - cost });
        edges.push({ venue, bucket_slug: slug, side: 'NO', price: q.no_price, edge: 1 - p - q.no_price - cost });
      }
      const reachable = degreesIn(own).filter((c) => r === null || c >= r);
      return {
        bucket_slug: slug,
        bucket_label: label,
        low: own.low,
        high: own.high,
        p: p === null ? null : atPrecision(p, 4),
        dead: r !== null && reachable.length === 0,
        held: expect.any(Boolean),
        ...quotes,
      };
    });
  // DESIGN 4's best edge: the largest positive one at an offer
  const best = edges
    .filter(bestEdgeCandidate)
    .reduce<(typeof edges)[number] | null>((a, e) => (!a || e.edge > a.edge ? e : a), null);
  return {
    city_id: city.city_id,
    city_name: city.city_name,
    local_date: date,
    local_time: localTime,
    phase,
    unit,
    mu_c: desk?.mu ?? null,
    sigma_c: desk?.sigma ?? null,
    mu: shown?.mu ?? null,
    sigma: shown?.sigma ?? null,
    spread,
    running_high_c: r,
    next: r === null ? null : expect.any(Number),
    buckets,
    best_edge: best && { ...best, edge: atPrecision(best.edge, 4) },
    // as of an instant before what the sync holds: every row up to it is known, nothing is behind
    behind: null,
    staked: expect.any(Number),
    pnl: expect.toSatisfy((v: unknown) => v === null || typeof v === 'number'),
    flags: expect.any(Array),
  };
}

describe('export board --at', () => {
  it('writes every city as it stood at the instant, each figure from the API’s rows up to it', async () => {
    const out = await exportBoard('--at', new Date(AT).toISOString());
    expect(out.stderr).toBe('');
    expect(out.code).toBe(0);
    const board = JSON.parse(out.stdout) as Record<string, any>[];
    const cities = (await world.svc.get('/cities')).body.data as {
      city_id: string;
      city_name: string;
      tz: string;
      country: string;
    }[];
    expect(board.map((c) => c.city_id)).toEqual(cities.map((c) => c.city_id).sort());
    let priced = 0;
    const phases = new Set<string>();
    for (const row of board) {
      const city = cities.find((c) => c.city_id === row.city_id) as (typeof cities)[number];
      expect(Object.keys(row)).toEqual(BOARD_CITY_FIELDS);
      expect(row, row.city_id).toEqual(await expectedCity(city));
      priced += row.buckets.filter((b: { p: unknown }) => b.p !== null).length;
      phases.add(row.phase);
    }
    // the world quotes and forecasts every city: most buckets are priced, and the zones are at different hours
    expect(priced).toBeGreaterThan(50);
    expect(phases.size).toBeGreaterThan(1);
  });

  it('is not the board of now', async () => {
    const now = JSON.parse((await exportBoard()).stdout) as Record<string, any>[];
    const then = JSON.parse((await exportBoard('--at', new Date(AT).toISOString())).stdout) as Record<string, any>[];
    expect(then.map((c) => c.local_time)).not.toEqual(now.map((c) => c.local_time));
  });
});
