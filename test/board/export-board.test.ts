import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEMPLATE_START } from '../helpers/world-template.js';
import { atPrecision, bestEdgeCandidate, degreesIn, designP, halfUp, localDay, readLabel } from './design-rules.js';
import { BOARD_CITY_FIELDS } from './fixtures.js';
import { type WorldBoard, worldBoard } from './world-board.js';

/**
 * `svc-monitor export board` against the real reference service: a real sync into a temp cache, then the built CLI
 * with its wall clock at the world's instant (world-clock.mjs; the world is frozen there). Every figure of the export
 * is checked against the API's own rows, and every `p` against a computation written here, from DESIGN 4's words:
 * its own normal distribution (Simpson's rule on the density, no CDF formula), its own whole-°C lattice (every whole
 * degree C converted and rounded, no bucket-edge algebra). No value of the simulated world is written in this test.
 */
let world: WorldBoard;

beforeAll(async () => {
  world = await worldBoard('export-board');
});
afterAll(() => world?.close());

const exportBoard = (...args: string[]) => world.exportBoard(...args);
const history = (table: string, cityId: string, since: string) => world.history(table, cityId, since);

describe('export board', () => {
  it('writes every city as DESIGN 3 says, each figure as the API serves it and each p as DESIGN 4 defines it', async () => {
    const out = await exportBoard();
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
    let withEdge = 0;
    for (const row of board) {
      const city = cities.find((c) => c.city_id === row.city_id) as (typeof cities)[number];
      const { date, startMs } = localDay(city.tz, TEMPLATE_START);
      expect(Object.keys(row)).toEqual(BOARD_CITY_FIELDS);
      expect(row.city_name).toBe(city.city_name);
      expect(row.local_date, row.city_id).toBe(date);
      // the CLI's clock is the service's (DESIGN 4): the world stands at 12:00:00Z and answers 11:59:59, so the CLI's
      // now is that plus the seconds since the sync
      const clock = new Intl.DateTimeFormat('en-GB', { timeZone: city.tz, hour: '2-digit', minute: '2-digit' });
      expect(out.nowMs[0]).toBeGreaterThanOrEqual(TEMPLATE_START - 1_000);
      expect(
        out.nowMs.map((ms) => clock.format(new Date(ms))),
        row.city_id,
      ).toContain(row.local_time);
      expect(['early', 'peak', 'passed', 'settled']).toContain(row.phase);
      const unit = ['US', 'GB'].includes(city.country) ? 'F' : 'C';
      expect(row.unit).toBe(unit);
      // a price and the model of the same instant: the sync's catch-up fetched both (DESIGN 4)
      expect(row.behind, row.city_id).toBeNull();

      // the forecast as /forecasts serves it, when it is for this date
      const forecast = (await world.svc.get(`/forecasts?city_id=${city.city_id}`)).body.data.svc_pro_forecast;
      const mine = forecast.local_date === date;
      expect([row.mu_c, row.sigma_c], row.city_id).toEqual(
        mine ? [forecast.predicted_max_c, forecast.sigma_c] : [null, null],
      );
      // ... and in the market's unit, its own aliases
      const shown =
        unit === 'F' ? [forecast.predicted_max_f, forecast.sigma_f] : [forecast.predicted_max_c, forecast.sigma_c];
      expect([row.mu, row.sigma], row.city_id).toEqual(mine ? shown : [null, null]);

      // the running high: the highest whole °C of the day's METAR reports so far (history and /current)
      const since = new Date(startMs).toISOString();
      const readings = (await history('metar_observations_history', city.city_id, since))
        .filter((m) => Date.parse(m.observed_at) >= startMs && Date.parse(m.observed_at) <= TEMPLATE_START)
        .map((m) => m.temp_c as number);
      const current = (await world.svc.get(`/current?city_id=${city.city_id}`)).body.data.metar_observations;
      if (Date.parse(current.fetched_at) >= startMs) readings.push(current.temp_c ?? ((current.temp_f - 32) * 5) / 9);
      const r = readings.length ? halfUp(Math.max(...readings)) : null;
      expect(row.running_high_c, row.city_id).toBe(r);

      // each venue's newest snapshot of the day at or before the instant, bucket by bucket
      const snapshots: Record<string, Record<string, any>[]> = {};
      for (const venue of ['mkta', 'mktb']) {
        const rows = (await history(`${venue}_buckets_history`, city.city_id, since)).filter(
          (q) => q.local_date === date && Date.parse(q.snapshot_at) <= TEMPLATE_START,
        );
        const newest = rows
          .map((q) => q.snapshot_at as string)
          .sort()
          .at(-1);
        snapshots[venue] = rows.filter((q) => q.snapshot_at === newest);
      }
      const slugs = new Set([...(snapshots.mkta ?? []), ...(snapshots.mktb ?? [])].map((q) => q.bucket_slug));
      expect(new Set(row.buckets.map((b: any) => b.bucket_slug)), row.city_id).toEqual(slugs);

      const edges: { venue: string; bucket_slug: string; side: string; price: number; edge: number }[] = [];
      for (const b of row.buckets) {
        const label = b.bucket_label as string;
        const own = readLabel(label);
        expect(own, label).not.toBeNull();
        expect([b.low, b.high], label).toEqual([own?.low, own?.high]);
        const p = mine ? designP(label, forecast.predicted_max_c, forecast.sigma_c, r) : null;
        if (p === null) expect(b.p, label).toBeNull();
        else {
          // DESIGN 3: 4 decimals
          expect(b.p, `${row.city_id} ${label}`).toEqual(atPrecision(p, 4));
          priced++;
        }
        const reachable = degreesIn(own as NonNullable<typeof own>).filter((c) => r === null || c >= r);
        expect(b.dead, `${row.city_id} ${label}`).toBe(r !== null && reachable.length === 0);
        for (const venue of ['mkta', 'mktb']) {
          const q = snapshots[venue]?.find((x) => x.bucket_slug === b.bucket_slug);
          expect(b[venue], `${venue} ${label}`).toEqual(
            q ? { yes_price: q.yes_price, no_price: q.no_price, snapshot_at: q.snapshot_at } : null,
          );
          if (!q || p === null) continue;
          // DESIGN 4's effective edge: cost half the overround, never under a cent
          const cost = Math.max(0.01, (q.yes_price + q.no_price - 1) / 2);
          edges.push({
            venue,
            bucket_slug: b.bucket_slug,
            side: 'YES',
            price: q.yes_price,
            edge: p - q.yes_price - cost,
          });
          edges.push({
            venue,
            bucket_slug: b.bucket_slug,
            side: 'NO',
            price: q.no_price,
            edge: 1 - p - q.no_price - cost,
          });
        }
      }
      // the largest edge of the day over both venues that is positive and at an offer (DESIGN 4; no CHECK: the
      // world's reports stay within its forecasts)
      const best = edges
        .filter(bestEdgeCandidate)
        .reduce<(typeof edges)[number] | null>((a, e) => (!a || e.edge > a.edge ? e : a), null);
      if (best === null) expect(row.best_edge, row.city_id).toBeNull();
      else {
        withEdge++;
        expect(row.best_edge, row.city_id).toEqual({ ...best, edge: atPrecision(best.edge, 4) });
      }

      // the models' spread of this date in the market's unit (the board's °C figure converts the °F one)
      const range = (await world.svc.get(`/forecasts?city_id=${city.city_id}`)).body.data.model_tmax_range;
      const spread = range.local_date !== date ? null : unit === 'F' ? range.spread_f : (range.spread_f * 5) / 9;
      if (spread === null) expect(row.spread, row.city_id).toBeNull();
      else expect(row.spread, row.city_id).toEqual(atPrecision(spread, 2));
      // next, a difference of temperatures, at 2 decimals too
      if (row.next !== null) expect(row.next, row.city_id).toEqual(atPrecision(row.next, 2));
      // the book's figures hang together (their values are worked by hand in board-export.unit.test.ts)
      expect(row.staked, row.city_id).toBeGreaterThanOrEqual(0);
      if (row.staked === 0) expect([row.pnl, row.buckets.some((b: any) => b.held)], row.city_id).toEqual([null, false]);
      for (const flag of row.flags) expect(['CHECK', 'BREAKTHROUGH', 'DEAD', 'KILL', 'CROSS']).toContain(flag);
      // CROSS (issue 45): a bucket whose YES one venue sells (its price, an offer) below what the other bids for it
      // (1 - its NO, an offer), after both venues' costs, the two snapshots at most two minutes apart; none once over
      const costOf = (q: any) => Math.max(0.01, (q.yes_price + q.no_price - 1) / 2);
      const offered = (x: number) => x > 0.01 && x < 0.99;
      const pays = (buy: any, sell: any) =>
        offered(buy.yes_price) &&
        offered(sell.no_price) &&
        1 - sell.no_price - buy.yes_price - costOf(buy) - costOf(sell) > 1e-9;
      const crosses = row.buckets.some(
        ({ mkta: a, mktb: z }: any) =>
          a !== null &&
          z !== null &&
          Math.abs(Date.parse(a.snapshot_at) - Date.parse(z.snapshot_at)) <= 120_000 &&
          (pays(a, z) || pays(z, a)),
      );
      expect(row.flags.includes('CROSS'), row.city_id).toBe(row.phase !== 'settled' && crosses);
    }
    // the world quotes and forecasts its cities' markets: most of them are priced here
    expect(priced).toBeGreaterThan(50);
    expect(withEdge).toBeGreaterThan(5);
  });

  it('--city, ndjson and csv (one record a bucket) say the same', async () => {
    const json = JSON.parse((await exportBoard()).stdout) as Record<string, any>[];
    const nyc = json.find((c) => c.city_id === 'nyc') as Record<string, any>;
    const one = await exportBoard('--city', 'nyc', '--format', 'ndjson');
    expect(one.code).toBe(0);
    expect(
      one.stdout
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l)),
    ).toEqual([nyc]);

    const csv = await exportBoard('--city', 'nyc', '--format', 'csv');
    expect(csv.code).toBe(0);
    const [header, ...records] = csv.stdout.trimEnd().split('\r\n');
    const columns = (header as string).split(',');
    // the city's own fields, then the bucket's, then the venues' and the best edge's, flattened
    const own = BOARD_CITY_FIELDS.filter((f) => f !== 'buckets' && f !== 'best_edge');
    expect(columns.slice(0, own.length + 7)).toEqual([
      ...own,
      'bucket_slug',
      'bucket_label',
      'low',
      'high',
      'p',
      'dead',
      'held',
    ]);
    expect(records).toHaveLength(Math.max(1, nyc.buckets.length));
    const field = (record: string, name: string) => record.split(',')[columns.indexOf(name)];
    nyc.buckets.forEach((b: any, i: number) => {
      const record = records[i] as string;
      expect(field(record, 'bucket_slug')).toBe(b.bucket_slug);
      expect(field(record, 'p')).toBe(b.p === null ? '' : String(b.p));
      expect(field(record, 'mkta_yes_price')).toBe(b.mkta === null ? '' : String(b.mkta.yes_price));
      expect(field(record, 'best_edge_edge')).toBe(nyc.best_edge === null ? '' : String(nyc.best_edge.edge));
    });
  });

  it('refuses a --city the cache does not list, naming it: ids are matched as the service lists them', async () => {
    for (const id of ['NYC', 'atlantis']) {
      const out = await exportBoard('--city', id);
      expect([out.code, out.stdout]).toEqual([2, '']);
      expect(out.stderr).toContain(`--city: no city '${id}' in the cache; its cities: amsterdam,`);
    }
  });

  it('--date pins every city to that market day, as the replayed screen does past midnight', async () => {
    // the world stands at 12:00Z on the 21st: the 20th is every city's yesterday, settled or closing
    const out = await exportBoard('--date', '2026-11-20');
    expect(out.code).toBe(0);
    const board = JSON.parse(out.stdout) as Record<string, any>[];
    expect(new Set(board.map((c) => c.local_date))).toEqual(new Set(['2026-11-20']));
    // its buckets are that day's (the venues' newest snapshots of the 20th), and its running high the day's own
    expect(board.every((c) => c.buckets.length > 0)).toBe(true);
    const bad = await exportBoard('--date', '2026-02-30');
    expect([bad.code, bad.stderr]).toEqual([
      2,
      'svc-monitor: --date must be a market day, YYYY-MM-DD, e.g. 2026-11-20\n',
    ]);
  });

  it('refuses --since and --until: the board is as of now', async () => {
    const out = await exportBoard('--since', '2026-11-01');
    expect(out.code).toBe(2);
    expect(out.stderr).toContain('--since and --until do not apply to board');
  });
});
