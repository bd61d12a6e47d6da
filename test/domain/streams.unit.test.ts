import { describe, expect, it } from 'vitest';
import { STRATEGY_FAMILIES } from '../../src/contract/strategies.js';
import { DEFAULT_INTERVALS_MS, LIVE_HISTORY_TABLES, liveSince, POLLED_STREAMS } from '../../src/domain/streams.js';
import { STREAMS } from '../../src/sync/streams.js';

describe('the stream catalogue', () => {
  it('lists every polled stream in the order a pass runs them, strategy families and live history included', () => {
    // METAR before the bucket prices: a first pass never stores prices the day's running high has not reached yet
    expect(POLLED_STREAMS).toEqual([
      'cities',
      'current',
      'forecasts',
      ...STRATEGY_FAMILIES,
      'fusion-locks',
      'metar',
      'mkta-buckets',
      'mktb-buckets',
      'daily',
    ]);
  });

  it('is what the sync engine schedules: the same streams, the same default intervals', () => {
    expect(STREAMS.map((s) => [s.name, s.everyMs])).toEqual(Object.entries(DEFAULT_INTERVALS_MS));
  });

  it('runs the live history streams every minute, the daily tables every 30 minutes (DESIGN 4)', () => {
    expect([
      DEFAULT_INTERVALS_MS['mkta-buckets'],
      DEFAULT_INTERVALS_MS['mktb-buckets'],
      DEFAULT_INTERVALS_MS.metar,
      DEFAULT_INTERVALS_MS.daily,
    ]).toEqual([60_000, 60_000, 60_000, 1_800_000]);
    expect(LIVE_HISTORY_TABLES).toEqual({
      metar: ['metar_observations_history'],
      'mkta-buckets': ['mkta_buckets_history'],
      'mktb-buckets': ['mktb_buckets_history'],
      daily: ['forecast_accuracy_daily', 'market_brief_daily', 'edge_resolved', 'model_forecasts_daily'],
    });
  });
});

describe('where a live history pass starts', () => {
  const now = new Date('2026-11-21T12:00:00Z');

  it('first run: now minus history_hours for instants', () => {
    // 12:00 on the 21st minus 48 h = 12:00 on the 19th
    expect(liveSince('instant', undefined, now, 48)).toBe('2026-11-19T12:00:00.000Z');
    expect(liveSince('instant', undefined, now, 1)).toBe('2026-11-21T11:00:00.000Z');
  });

  it('first run: that many days, rounded up and at least one, for dates', () => {
    // 48 h = 2 days; 49 h rounds up to 3; 5 h is still 1 day
    expect(liveSince('date', undefined, now, 48)).toBe('2026-11-19');
    expect(liveSince('date', undefined, now, 49)).toBe('2026-11-18');
    expect(liveSince('date', undefined, now, 5)).toBe('2026-11-20');
  });

  it('then the newest stored value minus the lookback: 2 h for instants, 1 day for dates', () => {
    expect(liveSince('instant', '2026-11-21T11:30:00Z', now, 48)).toBe('2026-11-21T09:30:00.000Z');
    // across midnight and a month
    expect(liveSince('instant', '2026-12-01T01:00:00Z', now, 48)).toBe('2026-11-30T23:00:00.000Z');
    expect(liveSince('date', '2026-11-21', now, 48)).toBe('2026-11-20');
    expect(liveSince('date', '2026-03-01', now, 48)).toBe('2026-02-28');
  });
});
