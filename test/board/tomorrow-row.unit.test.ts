import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { exportBoard } from '../../src/board/board-export.js';
import type { BoardRow } from '../../src/board/board-row.js';
import { readBoard } from '../../src/board/read-board.js';
import { type Cache, openCache } from '../../src/cache/index.js';
import { sortBoard } from '../../src/tui/panes/board/board-sort.js';
import { forecasts, fusionLock, metar, PARIS, quote } from '../helpers/cache-builder.js';

/**
 * A city's next market day beside its own (issue 44 item 9; DESIGN 5: venues list a market from 10:00 local the day
 * before). One Paris day built by hand (UTC+1 in November), every figure this file's own:
 *
 * - 2026-11-24: the desk polled at 15:00Z, N(12, 1) °C; METAR 13:00Z 12 °C; the fusion lock made at 13:00Z (14:00
 *   local), peak hour 14: `peak` until 16:00 local, `passed` after.
 * - 2026-11-25, tomorrow: listed on mkta at 09:30Z (10:30 local on the 24th), repriced at 16:55Z; the desk's forecast
 *   of the 25th polled at 16:00Z, N(10, 1) °C: from then on the newest poll of every layer is tomorrow's.
 */
const TODAY = '2026-11-24';
const TOMORROW = '2026-11-25';
const at = (hhmm: string) => Date.parse(`${TODAY}T${hhmm}:00Z`);
/** 17:00Z is 18:00 in Paris: today's day has passed (its peak hour 14 + 2 h). */
const EVENING = at('17:00');
/** 12:00Z is 13:00 in Paris: today's peak, before its lock. */
const NOON = at('12:00');

const LABELS = ['8°C or below', '9°C', '10°C', '11°C', '12°C or higher'] as const;
/** Tomorrow's newest mkta snapshot (16:55Z): YES / NO of each bucket above. */
const PRICES: [number, number][] = [
  [0.05, 0.94],
  [0.2, 0.78],
  [0.4, 0.58],
  [0.25, 0.73],
  [0.05, 0.94],
];

let cache: Cache;
beforeEach(() => {
  cache = openCache(':memory:');
  cache.resources.upsertCities([PARIS]);
  cache.resources.addForecasts(forecasts('paris', TODAY, { mu_c: 12, sigma_c: 1, at: `${TODAY}T15:00:00Z` }));
  cache.resources.addForecasts(forecasts('paris', TOMORROW, { mu_c: 10, sigma_c: 1, at: `${TODAY}T16:00:00Z` }));
  cache.resources.upsertHistorical('metar_observations_history', [metar(1, 'paris', TODAY, `${TODAY}T13:00:00Z`, 12)]);
  cache.resources.upsertFusionLocks([
    fusionLock({
      id: 'lock-24',
      city_id: 'paris',
      local_date: TODAY,
      peak_hour: 14,
      locked_at: `${TODAY}T13:00:00Z`,
      bucket_label: '12°C',
      yes_price: 0.5,
      tokens: 10,
    }),
  ]);
  let id = 0;
  cache.resources.upsertHistorical('mkta_buckets_history', [
    // today's market: its one bucket left alive
    quote(++id, 'paris', TODAY, `${TODAY}T16:55:00Z`, '12°C', 0.9, 0.09),
    // tomorrow's listing at 10:30 local, then its newest snapshot
    ...LABELS.map((label) => quote(++id, 'paris', TOMORROW, `${TODAY}T09:30:00Z`, label, 0.2, 0.79)),
    ...LABELS.map((label, i) => {
      const [yes, no] = PRICES[i] as [number, number];
      return quote(++id, 'paris', TOMORROW, `${TODAY}T16:55:00Z`, label, yes, no);
    }),
  ]);
});
afterEach(() => cache.close());

const screen = (atMs: number, date?: string): BoardRow[] =>
  readBoard(cache, [PARIS], atMs, {}, new Map(), { tomorrow: true, ...(date ? { date, asOf: atMs } : {}) });

describe("the board's tomorrow row", () => {
  it('once today has passed and tomorrow is listed: a second row for the city, marked tomorrow, priced by hand', () => {
    const rows = screen(EVENING);
    expect(rows.map((r) => [r.cityId, r.date, r.phase, r.tomorrow ?? false])).toEqual([
      ['paris', TODAY, 'passed', false],
      ['paris', TOMORROW, 'early', true],
    ]);
    // today's row keeps its own forecast, though the newest poll of every layer is now tomorrow's
    expect(rows[0]?.forecast).toEqual({ muC: 12, sigmaC: 1 });
    const next = rows[1] as BoardRow;
    // the desk's forecast of the 25th, no running high yet (its day has not begun)
    expect([next.forecast, next.runningHighC, next.localTime, next.dayOffset]).toEqual([
      { muC: 10, sigmaC: 1 },
      null,
      '18:00',
      -1,
    ]);
    // X ~ N(10, 1), no condition: p(≤8) = P(X < 8.5) = Φ(-1.5) = 0.066807; p(9) = Φ(-0.5) - Φ(-1.5) = 0.308538 -
    // 0.066807 = 0.241731; p(10) = Φ(0.5) - Φ(-0.5) = 0.691462 - 0.308538 = 0.382925; 11 and ≥12 mirror 9 and ≤8
    const p = next.buckets.map((b) => b.p as number);
    for (const [i, want] of [0.066807, 0.241731, 0.382925, 0.241731, 0.066807].entries())
      expect(p[i]).toBeCloseTo(want, 5);
    // the ladder: all five alive, 10°C the favourite
    expect(next.ladder.map((c) => [c.label, c.state])).toEqual([
      ['8°C or below', 'alive'],
      ['9°C', 'alive'],
      ['10°C', 'favourite'],
      ['11°C', 'alive'],
      ['12°C or higher', 'alive'],
    ]);
    // the newest snapshot (16:55Z), not the listing's: cost = max(0.01, (yes + no - 1) / 2) = 0.01 on every bucket.
    // YES 9°C: 0.241731 - 0.20 - 0.01 = +0.031731, the largest of the ten sides (NO 10°C: 0.617075 - 0.58 - 0.01 =
    // +0.027075; YES ≤8: 0.066807 - 0.05 - 0.01 = +0.006807; NO 11°C: 0.758269 - 0.73 - 0.01 = +0.018269)
    expect(next.buckets.map((b) => b.mkta?.yes_price)).toEqual([0.05, 0.2, 0.4, 0.25, 0.05]);
    expect([next.best?.venue, next.best?.side, next.best?.bucket.label, next.best?.price]).toEqual([
      'mkta',
      'YES',
      '9°C',
      0.2,
    ]);
    expect(next.best?.edge).toBeCloseTo(0.031731, 5);
    expect(next.flags).toEqual([]);
  });

  it('none before today has passed, though tomorrow is listed; none unless the screen asks for it', () => {
    // 13:00 local: today's peak (no lock yet); tomorrow listed since 09:30Z
    expect(screen(NOON).map((r) => [r.date, r.phase])).toEqual([[TODAY, 'peak']]);
    // the board read without `tomorrow` (export board, the record's callers): one row a city
    expect(readBoard(cache, [PARIS], EVENING, {}, new Map()).map((r) => r.date)).toEqual([TODAY]);
  });

  it('none before the venues list it', () => {
    // 09:00Z (10:00 local) tomorrow's listing at 09:30Z is not in the cache yet; nor is today passed
    expect(screen(at('09:00')).map((r) => r.date)).toEqual([TODAY]);
  });

  it('replayed: as of an instant with today pinned, the same two rows; before the listing, one', () => {
    expect(screen(EVENING, TODAY).map((r) => [r.date, r.tomorrow ?? false])).toEqual([
      [TODAY, false],
      [TOMORROW, true],
    ]);
    // as of 16:30Z (17:30 local, passed) tomorrow's newest snapshot is the 09:30Z listing at 0.20 a bucket, and the
    // desk's forecast of it (16:00Z) is held
    const earlier = screen(at('16:30'), TODAY)[1];
    expect(earlier?.buckets.map((b) => b.mkta?.yes_price)).toEqual([0.2, 0.2, 0.2, 0.2, 0.2]);
    expect(earlier?.forecast).toEqual({ muC: 10, sigmaC: 1 });
  });

  it('sorts directly under its city, whatever its edge', () => {
    const [today, next] = screen(EVENING) as [BoardRow, BoardRow];
    // Paris today, NO 12°C at 0.09 with 12 °C so far: p(12°C) = P(11.5 <= X < 12.5 | X >= 11.5) = 0.382925 / 0.691462
    // = 0.553790, so NO: 0.446210 - 0.09 - 0.01 = +0.346210; tomorrow's +0.031731 (above)
    expect(today.best?.edge).toBeCloseTo(0.34621, 4);
    // Berlin between them, +0.20: tomorrow's row still goes right under Paris, and Berlin after it
    const berlin = {
      ...today,
      cityId: 'berlin',
      name: 'Berlin',
      best: { ...(next.best as NonNullable<BoardRow['best']>), edge: 0.2 },
    };
    expect(sortBoard([next, berlin, today], 'edge').map((r) => [r.name, r.tomorrow ?? false])).toEqual([
      ['Paris', false],
      ['Paris', true],
      ['Berlin', false],
    ]);
    // by name: the same
    expect(sortBoard([berlin, next, today], 'city').map((r) => [r.name, r.tomorrow ?? false])).toEqual([
      ['Berlin', false],
      ['Paris', false],
      ['Paris', true],
    ]);
  });
});

describe('export board --date', () => {
  it("tomorrow's date: its buckets, p and best edge as the tomorrow row has them; today's: its own forecast", () => {
    const [next] = exportBoard(cache, { atMs: EVENING, replay: true, date: TOMORROW, cities: [PARIS] });
    expect([next?.local_date, next?.phase, next?.mu_c, next?.running_high_c]).toEqual([TOMORROW, 'early', 10, null]);
    expect(next?.buckets.map((b) => [b.bucket_label, b.mkta?.yes_price])).toEqual(
      LABELS.map((label, i) => [label, PRICES[i]?.[0]]),
    );
    // 4 decimals, as DESIGN 3 writes a probability: 0.382925 -> 0.3829
    expect(next?.buckets[2]?.p).toBeCloseTo(0.3829, 4);
    expect([next?.best_edge?.bucket_slug, next?.best_edge?.side]).toEqual(['9c', 'YES']);
    expect(next?.best_edge?.edge).toBeCloseTo(0.031731, 4);
    // today's: its own desk's N(12, 1), though the newest poll is tomorrow's
    const [today] = exportBoard(cache, { atMs: EVENING, replay: true, date: TODAY, cities: [PARIS] });
    expect([today?.local_date, today?.phase, today?.mu_c, today?.sigma_c]).toEqual([TODAY, 'passed', 12, 1]);
  });
});
