import type { Cache } from '../../src/cache/index.js';
import type { City } from '../../src/contract/cities.js';
import type { HistoricalRow } from '../../src/contract/historical.js';
import { fusionLock, HandCache, historicalRow, metar, NYC, PARIS, quote } from '../helpers/cache-builder.js';

/**
 * Twenty days of two cities written by hand through the repositories (helpers/cache-builder.ts), at fixed minutes of
 * every UTC hour, for retention (DESIGN 4). New York is UTC-5 and Paris UTC+1 all month (November), so their local
 * hours close on whole UTC hours. Every figure is this file's own.
 *
 * - both venues: a snapshot of the city's market day (its local date then) at :25 and :55, three buckets, the YES
 *   price moving with the hour;
 * - `/forecasts` polls (three layers) at :05 and :35; `forecast_history` runs at :20 and :50; `/current` polls (four
 *   sources) at :10 and :40; METAR reports at :00 and :30; the three other sources' history (wxa, wxb, pws) at :15 and
 *   :45, wxa's :45 row without a temperature;
 * - each local day settled by a resolved fusion lock at its METAR high (13 °C).
 */
export const FIRST_DAY = '2026-11-05';
export const DAYS = 20;
export const CITIES: readonly City[] = [NYC, PARIS];
const BUCKETS: Record<string, [string, string, string]> = {
  nyc: ['50-51°F', '52-53°F', '54-55°F'],
  paris: ['11°C', '12°C', '13°C'],
};
const OFFSET_H: Record<string, number> = { nyc: -5, paris: 1 };

const HOUR = 3_600_000;
const iso = (ms: number) => `${new Date(ms).toISOString().slice(0, 19)}Z`;
/** The city's local date at an instant (a whole-hour offset all month). */
const localDate = (cityId: string, ms: number) =>
  new Date(ms + (OFFSET_H[cityId] as number) * HOUR).toISOString().slice(0, 10);
/** The temperature of a local hour: 5 °C at night, up to 13 °C at 15:00, down after. */
const tempAt = (localHour: number) => Math.max(5, 13 - Math.abs(15 - localHour));

export function fillTwentyDays(cache: Cache): void {
  const hand = new HandCache(cache).cities(...CITIES);
  const start = Date.parse(`${FIRST_DAY}T00:00:00Z`);
  const quotes: Record<'mkta' | 'mktb', HistoricalRow[]> = { mkta: [], mktb: [] };
  const metars: HistoricalRow[] = [];
  const runs: HistoricalRow[] = [];
  const readings: Record<'wxa_history' | 'wxb_history' | 'pws_observations_history', HistoricalRow[]> = {
    wxa_history: [],
    wxb_history: [],
    pws_observations_history: [],
  };
  let id = 1;
  for (let h = 0; h < DAYS * 24; h++) {
    const hourMs = start + h * HOUR;
    for (const c of CITIES) {
      const localHour = (((h + (OFFSET_H[c.city_id] as number)) % 24) + 24) % 24;
      for (const minute of [25, 55]) {
        const at = hourMs + minute * 60_000;
        const date = localDate(c.city_id, at);
        // the YES price: 0.30 + 0.05 a local hour past 8 (mod 5), + 0.02 at :55 against :25
        const yes = Math.round((0.3 + 0.05 * (localHour % 5) + (minute === 55 ? 0.02 : 0)) * 100) / 100;
        for (const venue of ['mkta', 'mktb'] as const)
          (BUCKETS[c.city_id] as string[]).forEach((label, i) => {
            const y = Math.round((yes - 0.1 * i) * 100) / 100;
            const row = quote(id++, c.city_id, date, iso(at), label, y, Math.round((1.02 - y) * 100) / 100);
            quotes[venue].push(row);
          });
      }
      for (const minute of [0, 30])
        metars.push(
          metar(id++, c.city_id, localDate(c.city_id, hourMs), iso(hourMs + minute * 60_000), tempAt(localHour)),
        );
      for (const minute of [20, 50]) {
        const at = hourMs + minute * 60_000;
        runs.push({
          id: id++,
          city_id: c.city_id,
          local_date: localDate(c.city_id, at),
          fetched_at: iso(at),
          predicted_max_c: minute === 20 ? 12 : 12.5,
          predicted_max_f: minute === 20 ? 53.6 : 54.5,
          sigma_c: 1,
          sigma_f: 1.8,
          pacing_delta: 0,
          hottest_model: 'gfs',
        } as HistoricalRow);
      }
      for (const table of ['wxa_history', 'wxb_history', 'pws_observations_history'] as const)
        for (const minute of [15, 45]) {
          const row = historicalRow(table, id++, c.city_id, iso(hourMs + minute * 60_000)) as Record<string, unknown>;
          row.local_date = localDate(c.city_id, hourMs);
          row.temp_c = tempAt(localHour);
          row.temp_f = Math.round(((tempAt(localHour) * 9) / 5 + 32) * 10) / 10;
          if (table === 'wxa_history' && minute === 45) {
            delete row.temp_c;
            delete row.temp_f;
          }
          readings[table].push(row as HistoricalRow);
        }
      for (const minute of [5, 35]) {
        const at = hourMs + minute * 60_000;
        hand.forecast(c, localDate(c.city_id, at), { mu_c: minute === 5 ? 12 : 12.2, sigma_c: 1, at: iso(at) });
      }
      for (const minute of [10, 40]) hand.current(c, iso(hourMs + minute * 60_000), tempAt(localHour) + 0.4);
    }
  }
  hand.historical('mkta_buckets_history', quotes.mkta);
  hand.historical('mktb_buckets_history', quotes.mktb);
  hand.historical('metar_observations_history', metars);
  hand.historical('forecast_history', runs);
  // through the repository itself: the builder's check wants a temperature, which the API may leave out
  for (const [table, rows] of Object.entries(readings))
    cache.resources.upsertHistorical(table as keyof typeof readings, rows);
  for (let d = 0; d < DAYS; d++) {
    const date = new Date(start + d * 24 * HOUR).toISOString().slice(0, 10);
    hand.locks(
      ...CITIES.map((c) =>
        fusionLock({
          id: `${c.city_id}-${date}`,
          city_id: c.city_id,
          local_date: date,
          locked_at: `${date}T${c.city_id === 'nyc' ? '20' : '14'}:00:00Z`,
          bucket_label: (BUCKETS[c.city_id] as string[])[2] as string,
          yes_price: 0.5,
          tokens: 20,
          hit: true,
          actual_c: 13,
        }),
      ),
    );
  }
}
