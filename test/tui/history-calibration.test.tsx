import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Cache, openCache } from '../../src/cache/index.js';
import type { City } from '../../src/contract/cities.js';
import type { FusionLock } from '../../src/contract/fusion-locks.js';
import type { HistoricalRow, HistoricalTable } from '../../src/contract/historical.js';
import { PANES } from '../../src/tui/hooks/use-monitor-state.js';
import { MonitorApp } from '../../src/tui/render-monitor.js';
import { lines, renderTui, statusSource } from './fixtures.js';

/**
 * Calibration in History's summaries over a small history built by hand in a real cache file:
 *
 * berlin (°C, UTC+1 in November: 12:00 local is 11:00Z), buckets `19°C or below`, `20°C`, `21°C`, `22°C or higher`
 * - 11-01 settled at 21 (resolved lock, 21.0 °C). Desk at 12:00: the 10:05Z run, mu 20.5 sigma 1 (the 09:05Z run is
 *   older, the 11:05Z one after noon). METAR 15.0 at 00:00, 20.6 at 12:00, 21.2 at 14:00. mkta at 11:00Z
 *   0.05 0.30 0.50 0.25 (its 12:00Z snapshot is after noon); mktb 0.10 0.20 0.60 0.10.
 * - 11-02 settled at 23 (resolved lock). Desk mu 20.5 sigma 1; METAR 23.0 at 13:00 only; mkta 0.10 0.40 0.40 0.10.
 * - 11-03 quoted and forecast, but its lock is open: not settled, not scored.
 * nyc (°F, UTC-5 on 11-02): 11-02 settled at 54 by its forecast score (no lock, no forecast); METAR 50.0 at 00:00,
 * 53.6 at 10:00.
 */
const HOUR = 3_600_000;
const at = (iso: string) => `${iso}Z`;

const CITIES: City[] = [
  {
    city_id: 'berlin',
    city_name: 'Berlin',
    country: 'DE',
    lat: 52.56,
    lon: 13.29,
    tz: 'Europe/Berlin',
    icao: 'EDDB',
    station_name: 'Berlin Brandenburg',
  },
  {
    city_id: 'nyc',
    city_name: 'New York',
    country: 'US',
    lat: 40.78,
    lon: -73.97,
    tz: 'America/New_York',
    icao: 'KNYC',
    station_name: 'Central Park',
  },
];

const lock = (date: string, c: number | null): FusionLock => ({
  id: `fl-berlin-${date}`,
  city_id: 'berlin',
  local_date: date,
  peak_hour: 15,
  locked_at: at(`${date}T14:00:00`),
  bucket_slug: '21c',
  bucket_label: '21°C',
  event_slug: `highest-temperature-in-berlin-${date}`,
  yes_price: 0.5,
  tokens: 20,
  resolved: c !== null,
  actual_tmax_c: c,
  actual_tmax_f: c === null ? null : (c * 9) / 5 + 32,
  hit: c === null ? null : c === 21,
  payout_usd: c === null ? null : 0,
  pnl_usd: c === null ? null : -10,
});

let ids = 0;
const LABELS = ['19°C or below', '20°C', '21°C', '22°C or higher'];
const snapshot = (date: string, instant: string, prices: number[]) =>
  LABELS.map((bucket_label, i) => ({
    id: ++ids,
    city_id: 'berlin',
    local_date: date,
    event_slug: `highest-temperature-in-berlin-${date}`,
    snapshot_at: at(instant),
    bucket_slug: `b${i}`,
    bucket_label,
    yes_price: prices[i] as number,
    no_price: 1 - (prices[i] as number),
  }));
const forecast = (date: string, instant: string, mu: number) => ({
  id: ++ids,
  city_id: 'berlin',
  local_date: date,
  fetched_at: at(instant),
  predicted_max_c: mu,
  predicted_max_f: (mu * 9) / 5 + 32,
  sigma_c: 1,
  sigma_f: 1.8,
  pacing_delta: 0,
  hottest_model: 'gfs',
});
const metar = (city: string, date: string, instant: string, c: number) => ({
  id: ++ids,
  city_id: city,
  local_date: date,
  station_code: city === 'nyc' ? 'KNYC' : 'EDDB',
  observed_at: at(instant),
  fetched_at: at(instant),
  temp_c: c,
  temp_f: Math.round(((c * 9) / 5 + 32) * 10) / 10,
  raw: 'METAR',
});

const HISTORY: [HistoricalTable, Record<string, unknown>[]][] = [
  [
    'mkta_buckets_history',
    [
      ...snapshot('2026-11-01', '2026-11-01T10:00:00', [0.25, 0.25, 0.25, 0.25]),
      ...snapshot('2026-11-01', '2026-11-01T11:00:00', [0.05, 0.3, 0.5, 0.25]),
      ...snapshot('2026-11-01', '2026-11-01T12:00:00', [0.01, 0.01, 0.97, 0.01]),
      ...snapshot('2026-11-02', '2026-11-02T11:00:00', [0.1, 0.4, 0.4, 0.1]),
      ...snapshot('2026-11-03', '2026-11-03T11:00:00', [0.1, 0.4, 0.4, 0.1]),
    ],
  ],
  ['mktb_buckets_history', snapshot('2026-11-01', '2026-11-01T11:00:00', [0.1, 0.2, 0.6, 0.1])],
  [
    'forecast_history',
    [
      forecast('2026-11-01', '2026-11-01T09:05:00', 10),
      forecast('2026-11-01', '2026-11-01T10:05:00', 20.5),
      forecast('2026-11-01', '2026-11-01T11:05:00', 25),
      forecast('2026-11-02', '2026-11-02T10:05:00', 20.5),
      forecast('2026-11-03', '2026-11-03T10:05:00', 20.5),
    ],
  ],
  [
    'metar_observations_history',
    [
      metar('berlin', '2026-11-01', '2026-10-31T23:00:00', 15),
      metar('berlin', '2026-11-01', '2026-11-01T11:00:00', 20.6),
      metar('berlin', '2026-11-01', '2026-11-01T13:00:00', 21.2),
      metar('berlin', '2026-11-02', '2026-11-02T12:00:00', 23),
      metar('berlin', '2026-11-03', '2026-11-03T12:00:00', 24),
      metar('nyc', '2026-11-02', '2026-11-02T05:00:00', 10),
      metar('nyc', '2026-11-02', '2026-11-02T15:00:00', 12),
    ],
  ],
  [
    'forecast_accuracy_daily',
    [
      {
        id: ++ids,
        city_id: 'nyc',
        local_date: '2026-11-02',
        unit: 'F',
        predicted_max: 53,
        actual_max: 54,
        abs_error: 1,
        abs_error_c: 0.56,
      },
    ],
  ],
];

let root: string;
let cache: Cache;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'history-calibration-'));
  cache = openCache(join(root, 'cache.db'));
  cache.resources.upsertCities(CITIES);
  cache.resources.upsertFusionLocks([lock('2026-11-01', 21), lock('2026-11-02', 23), lock('2026-11-03', null)]);
  for (const [table, rows] of HISTORY) cache.resources.upsertHistorical(table, rows as HistoricalRow[]);
});
afterEach(() => {
  cache.close();
  rmSync(root, { recursive: true, force: true });
});

const HISTORY_KEY = String(PANES.indexOf('history') + 1);
const now = () => new Date(Date.parse('2026-11-04T12:00:00Z') + HOUR);
/** The frame's lines from `title` on, up to the next blank line. */
const section = (frame: string, title: string) => {
  const all = lines(frame);
  const from = all.findIndex((l) => l.includes(title));
  expect(from, `${title} in\n${frame}`).toBeGreaterThanOrEqual(0);
  const to = all.findIndex((l, i) => i > from && l.trim() === '');
  return all.slice(from, to < 0 ? undefined : to);
};

describe('calibration in History’s summaries', () => {
  it('shows Brier, log loss and the favourite’s wins, desk against each venue, readable at 80 columns', async () => {
    const app = await renderTui(<MonitorApp cache={cache} source={statusSource()} now={now} />, {
      columns: 80,
      rows: 80,
    });
    await app.press(HISTORY_KEY, 's');
    const scores = section(app.frame(), 'CALIBRATION AT 12:00 LOCAL');
    expect(scores[0]).toContain('(settled days, newest 30 dates)');
    expect(scores.find((l) => l.includes('city'))).toMatch(/city +venue +days +desk +venue +desk +venue +desk +venue/);
    // berlin on mkta, two days (the arithmetic is in test/domain/calibration.unit.test.ts):
    // desk Brier (0.201372 + 0.966065) / 2 = 0.584, venue (0.425620 + 1.14) / 2 = 0.783
    // desk log loss (0.381715 + 1.841022) / 2 = 1.111, venue (0.788457 + 2.302585) / 2 = 1.546
    // favourites: each won on 11-01 only, 50%
    expect(scores).toContainEqual(
      expect.stringMatching(/^ {2}berlin +mkta +2 +0\.584 +0\.783 +1\.111 +1\.546 +50% +50%$/),
    );
    // berlin on mktb, 11-01 only: desk 0.201, 0.382; venue 0.1^2 + 0.2^2 + (0.6 - 1)^2 + 0.1^2 = 0.22, -ln 0.6 = 0.511
    expect(scores).toContainEqual(
      expect.stringMatching(/^ {2}berlin +mktb +1 +0\.201 +0\.220 +0\.382 +0\.511 +100% +100%$/),
    );
    // nyc settled but had no forecast cached: not scored; ALL is berlin's
    expect(scores.some((l) => l.includes('nyc'))).toBe(false);
    expect(scores).toContainEqual(expect.stringMatching(/^ {2}ALL +mkta +2 +0\.584 +0\.783 +1\.111 +1\.546/));
    for (const l of scores) expect(l.length).toBeLessThanOrEqual(80);

    const hours = section(app.frame(), 'RUNNING HIGH ALREADY AT THE SETTLED VALUE');
    expect(hours[1]).toMatch(/city +days +00h +02h +04h .* 20h +22h$/);
    // berlin: 20.6 at 12:00 settles at 21 (11-01, a hit from 12h), 23.0 at 13:00 (11-02, from 13h)
    expect(hours).toContain(`  berlin         2${'   0%'.repeat(6)}  50%${' 100%'.repeat(5)}`);
    // nyc: 53.6 °F (12 °C) at 10:00 settles at 54 (from 10h)
    expect(hours).toContain(`  nyc            1${'   0%'.repeat(5)}${' 100%'.repeat(7)}`);
    // all three days: 10h 1/3, 12h 2/3, 14h 3/3
    expect(hours).toContain(`  ALL            3${'   0%'.repeat(5)}  33%  67%${' 100%'.repeat(5)}`);
    for (const l of hours) expect(l.length).toBeLessThanOrEqual(80);
    app.unmount();
  });

  it('follows the filter: one city, and a date range', async () => {
    const app = await renderTui(<MonitorApp cache={cache} source={statusSource()} now={now} />, {
      columns: 120,
      rows: 60,
    });
    await app.press(HISTORY_KEY, '/', ...'berlin 2026-11-02..2026-11-03'.split(''), '\r', 's');
    const frame = await app.until((f) => f.includes('CALIBRATION AT 12:00'), 'the summaries');
    const scores = section(frame, 'CALIBRATION AT 12:00 LOCAL');
    expect(scores[0]).toContain('(settled days, 2026-11-02..2026-11-03)');
    // 11-02 alone: desk 0.966, 1.841, its favourite lost; venue 1.14, ln 10 = 2.303
    expect(scores).toContainEqual(
      expect.stringMatching(/^ {2}berlin +mkta +1 +0\.966 +1\.140 +1\.841 +2\.303 +0% +0%$/),
    );
    expect(scores.some((l) => /mktb|ALL/.test(l))).toBe(false);
    const hours = section(frame, 'RUNNING HIGH ALREADY AT THE SETTLED VALUE');
    expect(hours).toContain(`  berlin         1${'   0%'.repeat(7)}${' 100%'.repeat(5)}`);
    expect(hours.some((l) => l.includes('nyc'))).toBe(false);
    app.unmount();
  });

  it('says what to backfill when no settled day can be scored', async () => {
    cache.close();
    rmSync(root, { recursive: true, force: true });
    root = mkdtempSync(join(tmpdir(), 'history-calibration-'));
    cache = openCache(join(root, 'cache.db'));
    cache.resources.upsertCities(CITIES);
    const app = await renderTui(<MonitorApp cache={cache} source={statusSource()} now={now} />, {
      columns: 80,
      rows: 60,
    });
    await app.press(HISTORY_KEY, 's');
    expect(app.frame()).toContain('no settled day with a desk forecast and venue prices at 12:00 cached');
    expect(app.frame()).toContain('no METAR readings of a settled day cached');
    app.unmount();
  });
});
