import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, instantAtLocal, isoUtc } from '../../src/domain/city-time.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { SECOND_TEMPLATE_SEED, TEMPLATE_SEED, TEMPLATE_START } from '../helpers/world-template.js';

/**
 * DESIGN 5's venues as real ones, read through the v1 API over the 30-day fill of both seeds: each city's market of a
 * day is listed from 10:00 local the day before until it settles, and a quote's spread (YES ask + NO ask - 1, the
 * rows carrying each side's price to buy) is its venue's: 1-3 cents on a live bucket, wider on thin tails and far
 * buckets, up to about 7 cents. And the desk's reasoning under a °C market speaks °C.
 */

const VENUES = ['mkta', 'mktb'] as const;
/** The world's history starts 30 days before its clock (world.ts), on the hour: 2026-10-22T12:00:00Z. */
const HISTORY_START = Date.parse('2026-10-22T12:00:00Z');
/** The days of the fill whose local day had 25 hours (the autumn clock change): continent and London, then the US. */
const LONG_DAYS: Record<string, string> = { 'America/': '2026-11-01', 'Europe/': '2026-10-25' };

interface Day {
  first: string;
  last: string;
  instants: Set<string>;
  rows: number;
  /** The favourite's YES price at 20:00 local the evening before and at 12:00 local on the day. */
  evening?: number;
  noon?: number;
}

interface Figures {
  /** `venue|city|date` -> what its snapshots show. */
  days: Map<string, Day>;
  /** Spreads in cents, by venue and kind of bucket. */
  spreads: Record<string, { live: number[]; tail: number[] }>;
}

const quantile = (values: readonly number[], q: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] as number;
};

/** Every snapshot row of both venues, page by page (a seed's fill holds some 650,000: none is kept whole). */
async function figuresOf(svc: TestService, cities: any[]): Promise<Figures> {
  const zone = new Map(cities.map((c) => [c.city_id as string, c.tz as string]));
  const days = new Map<string, Day>();
  const spreads: Figures['spreads'] = {};
  for (const venue of VENUES) {
    const own = { live: [] as number[], tail: [] as number[] };
    spreads[venue] = own;
    let cursor: number | null = null;
    do {
      const page: any = (
        await svc.get(`/historical/${venue}_buckets_history?limit=1000${cursor === null ? '' : `&cursor=${cursor}`}`)
      ).body;
      for (const row of page.data) {
        const key = `${venue}|${row.city_id}|${row.local_date}`;
        let day = days.get(key);
        if (!day) {
          day = { first: row.snapshot_at, last: row.snapshot_at, instants: new Set(), rows: 0 };
          days.set(key, day);
        }
        if (row.snapshot_at < day.first) day.first = row.snapshot_at;
        if (row.snapshot_at > day.last) day.last = row.snapshot_at;
        day.instants.add(row.snapshot_at);
        day.rows++;
        const tz = zone.get(row.city_id) as string;
        if (row.snapshot_at === isoUtc(instantAtLocal(addDays(row.local_date, -1), 20, 0, tz)))
          day.evening = Math.max(day.evening ?? 0, row.yes_price);
        if (row.snapshot_at === isoUtc(instantAtLocal(row.local_date, 12, 0, tz)))
          day.noon = Math.max(day.noon ?? 0, row.yes_price);
        // a bucket the running high has decided is quoted at the floor and ceiling (0.001 and 0.999): no market
        const decided =
          Math.min(row.yes_price, row.no_price) === 0.001 && Math.max(row.yes_price, row.no_price) === 0.999;
        if (decided) continue;
        const cents = Math.round((row.yes_price + row.no_price - 1) * 1000) / 10;
        // the venue's mid: halfway between the YES ask and the YES bid (1 - the NO ask)
        const mid = (row.yes_price + 1 - row.no_price) / 2;
        (mid >= 0.1 && mid <= 0.9 ? own.live : own.tail).push(cents);
      }
      cursor = page.next_cursor;
    } while (cursor !== null);
  }
  return { days, spreads };
}

const services: TestService[] = [];
const seeds = new Map<number, { cities: any[]; figures: Figures }>();

beforeAll(async () => {
  for (const seed of [TEMPLATE_SEED, SECOND_TEMPLATE_SEED]) {
    const svc = await startTestService({ seed });
    services.push(svc);
    const cities = (await svc.get('/cities')).body.data;
    seeds.set(seed, { cities, figures: await figuresOf(svc, cities) });
  }
  const lines = [...seeds].flatMap(([seed, { figures }]) =>
    VENUES.flatMap((venue) => {
      const s = figures.spreads[venue] as Figures['spreads'][string];
      const cents = (v: number[]) =>
        `p10 ${quantile(v, 0.1)} p50 ${quantile(v, 0.5)} p90 ${quantile(v, 0.9)} max ${quantile(v, 1)} (${v.length})`;
      return [`seed ${seed} ${venue} spread, cents: live ${cents(s.live)}; tails ${cents(s.tail)}`];
    }),
  );
  console.log(lines.join('\n'));
});

afterAll(async () => {
  for (const svc of services) await svc.close();
});

describe.each([TEMPLATE_SEED, SECOND_TEMPLATE_SEED])('the venues of the 30-day fill of seed %i', (seed) => {
  const of = () => seeds.get(seed) as { cities: any[]; figures: Figures };

  it("lists every city's market from 10:00 local the day before until it settles, on both venues", () => {
    const { cities, figures } = of();
    let checked = 0;
    for (const city of cities) {
      const longDay = Object.entries(LONG_DAYS).find(([prefix]) => city.tz.startsWith(prefix))?.[1];
      for (let date = '2026-10-22'; date <= '2026-11-22'; date = addDays(date, 1)) {
        const listed = instantAtLocal(addDays(date, -1), 10, 0, city.tz);
        const ends = instantAtLocal(addDays(date, 1), 0, 0, city.tz);
        for (const venue of VENUES) {
          const day = figures.days.get(`${venue}|${city.city_id}|${date}`);
          const at = `${venue} ${city.city_id} ${date}`;
          if (listed >= TEMPLATE_START) {
            // not listed yet when the world's clock stopped
            expect(day, at).toBeUndefined();
            continue;
          }
          if (ends <= HISTORY_START) continue;
          expect(day, at).toBeDefined();
          // listed before the history began: quoted from the history's first half hour
          expect(day?.first, at).toBe(isoUtc(Math.max(listed, HISTORY_START)));
          if (listed < HISTORY_START || ends > TEMPLATE_START) continue;
          // a whole listing: 10:00-23:30 the day before (14 h, 28 half hours) and the day (24 h, 48; 25 h, 50, on the
          // day the clocks went back), every half hour, 11 buckets each
          expect(day?.last, at).toBe(isoUtc(ends - 30 * 60_000));
          const halfHours = 28 + (date === longDay ? 50 : 48);
          expect(day?.instants.size, at).toBe(halfHours);
          expect(day?.rows, at).toBe(11 * halfHours);
          checked++;
        }
      }
    }
    // 13 cities x 2 venues x the days listed in full: the US from 23 October (10:00 EDT on the 22nd is 14:00Z, after
    // the history's 12:00Z), Europe from 24 October (10:00 on the 22nd is 08:00-09:00Z), to 20 November: 29 and 28
    expect(checked).toBe(2 * (6 * 29 + 7 * 28));
  });

  it('lists a day at 10:00 local the day before: New York and Paris on 10 November', () => {
    const { figures } = of();
    // 10:00 EST (UTC-5, the US clocks went back on 1 November) on 9 November is 15:00Z; 10:00 CET (UTC+1) is 09:00Z
    expect(figures.days.get('mkta|nyc|2026-11-10')?.first).toBe('2026-11-09T15:00:00Z');
    expect(figures.days.get('mktb|nyc|2026-11-10')?.first).toBe('2026-11-09T15:00:00Z');
    expect(figures.days.get('mkta|paris|2026-11-10')?.first).toBe('2026-11-09T09:00:00Z');
    // and until it settles: its last half hour is 23:30 local on the day, 04:30Z and 22:30Z the next UTC day and the day
    expect(figures.days.get('mkta|nyc|2026-11-10')?.last).toBe('2026-11-11T04:30:00Z');
    expect(figures.days.get('mkta|paris|2026-11-10')?.last).toBe('2026-11-10T22:30:00Z');
  });

  it("quotes each bucket at its venue's spread: a median of 1-3 cents on live buckets, wider on the tails, at most 7", () => {
    for (const venue of VENUES) {
      const { live, tail } = of().figures.spreads[venue] as Figures['spreads'][string];
      const at = `seed ${seed} ${venue}`;
      expect(live.length, at).toBeGreaterThan(10_000);
      expect(tail.length, at).toBeGreaterThan(10_000);
      // every live quote is at least a cent wide and the spread varies quote to quote
      expect(quantile(live, 0), at).toBeGreaterThanOrEqual(1);
      expect(new Set(live).size, at).toBeGreaterThanOrEqual(3);
      expect(quantile(live, 0.5), at).toBeGreaterThanOrEqual(1);
      expect(quantile(live, 0.5), at).toBeLessThanOrEqual(3);
      expect(quantile(tail, 0.5), at).toBeGreaterThan(quantile(live, 0.5));
      expect(quantile(tail, 0.9), at).toBeGreaterThan(quantile(live, 0.9));
      expect(quantile(tail, 1), at).toBeLessThanOrEqual(7);
      expect(quantile(live, 1), at).toBeLessThanOrEqual(7);
    }
  });

  it('prices tomorrow the evening before with the doubt of a day out: its favourite cheaper at 20:00 than at noon on the day', () => {
    for (const venue of VENUES) {
      const days = [...of().figures.days]
        .filter(([key]) => key.startsWith(`${venue}|`))
        .map(([, day]) => day)
        .filter((d) => d.evening !== undefined && d.noon !== undefined);
      // 13 cities x the 29 settled days of the fill whose 20:00 the evening before is in it, and more
      expect(days.length).toBeGreaterThanOrEqual(13 * 29);
      const evening = quantile(
        days.map((d) => d.evening as number),
        0.5,
      );
      const noon = quantile(
        days.map((d) => d.noon as number),
        0.5,
      );
      console.log(`seed ${seed} ${venue}: favourite's median YES at 20:00 the evening before ${evening}, noon ${noon}`);
      expect(evening).toBeGreaterThan(0.15);
      expect(evening).toBeLessThan(noon);
    }
  });

  it('writes the reasoning under a °C market in °C and under a °F market in °F', async () => {
    const svc = services[[TEMPLATE_SEED, SECOND_TEMPLATE_SEED].indexOf(seed)] as TestService;
    for (const city of of().cities) {
      const { reasoning } = (await svc.get(`/forecasts?city_id=${city.city_id}`)).body.data.svc_pro_forecast;
      // US and UK markets are in °F, the continent's in °C (spec section 1)
      const unit = ['US', 'GB'].includes(city.country) ? 'F' : 'C';
      expect(reasoning, city.city_id).toMatch(unit === 'C' ? /puts the \S+ high at -?\d+(\.\d)?°C/ : /high at \S+°F/);
      expect(reasoning, city.city_id).toMatch(new RegExp(`Uncertainty ±\\d+(\\.\\d)?°${unit}`));
      if (unit === 'C') expect(reasoning, city.city_id).not.toContain('°F');
    }
  });
});
