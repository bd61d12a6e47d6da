import { describe, expect, it } from 'vitest';
import {
  parseReplayTime,
  replayTargetOfRow,
  spanFreshMs,
  spanText,
  syncedTo,
} from '../../../src/tui/state/replay-target.js';
import { NYC, PARIS } from '../../helpers/cache-builder.js';

/** The span of a cache from 2026-11-19T06:00Z to 2026-11-21T14:00Z; now is 2026-11-21T15:00Z. */
const SPAN = { firstMs: Date.parse('2026-11-19T06:00:00Z'), lastMs: Date.parse('2026-11-21T14:00:00Z') };
const NOW = Date.parse('2026-11-21T15:00:00Z');
const parse = (text: string, day = '2026-11-20') => parseReplayTime(text, PARIS.tz, day, SPAN, NOW);

describe('the t prompt', () => {
  it('reads a local date and time in the zone given (Paris: UTC+1 in November), the date pinned as the market day', () => {
    // 09:30 in Paris is 08:30Z
    expect(parse('2026-11-20 09:30')).toEqual({ atMs: Date.parse('2026-11-20T08:30:00Z'), date: '2026-11-20' });
    expect(parse('  2026-11-19T23:05 ')).toEqual({ atMs: Date.parse('2026-11-19T22:05:00Z'), date: '2026-11-19' });
    // a time alone is on the day the prompt was opened on
    expect(parse('9:30', '2026-11-21')).toEqual({ atMs: Date.parse('2026-11-21T08:30:00Z'), date: '2026-11-21' });
    // New York is UTC-5: 09:30 there is 14:30Z
    expect(parseReplayTime('2026-11-20 09:30', NYC.tz, '2026-11-20', SPAN, NOW)).toEqual({
      atMs: Date.parse('2026-11-20T14:30:00Z'),
      date: '2026-11-20',
    });
  });

  it('refuses what is no local time, what is before the first row or after now, and a cache with no rows', () => {
    for (const text of ['', 'yesterday', '25:00', '2026-11-20 09:60', '2026-02-30 09:00', '2026-11-20'])
      expect(parse(text)).toEqual({ error: 'not a local date and time: type e.g. 2026-11-20 09:30, or a time alone' });
    // 06:59 in Paris is 05:59Z, a minute before the first row; 16:01 is 15:01Z, a minute after now
    expect(parse('2026-11-19 06:59')).toEqual({ error: "that is before the cache's first row" });
    expect(parse('2026-11-19 07:00')).toEqual({ atMs: SPAN.firstMs, date: '2026-11-19' });
    expect(parse('2026-11-21 16:01')).toEqual({ error: 'that is after now' });
    expect(parse('2026-11-21 16:00')).toEqual({ atMs: NOW, date: '2026-11-21' });
    expect(parseReplayTime('09:00', PARIS.tz, '2026-11-20', null, NOW)).toEqual({
      error: 'the cache holds no rows yet: nothing to show as of a time',
    });
  });
});

describe('History’s Enter on a row', () => {
  const cities = [PARIS, NYC];
  it('replays a past day from the row’s own instant when it falls in that day', () => {
    const row = { city_id: 'paris', local_date: '2026-11-20', snapshot_at: '2026-11-20T13:30:00Z' };
    expect(replayTargetOfRow(row, cities, NOW)).toEqual({
      atMs: Date.parse('2026-11-20T13:30:00Z'),
      date: '2026-11-20',
      cityId: 'paris',
    });
  });

  it('from 09:00 local when it has no instant of its own, or one outside the day', () => {
    // 09:00 in New York on 11-19 is 14:00Z; a forecast fetched the day before its day is outside it
    const nine = { atMs: Date.parse('2026-11-19T14:00:00Z'), date: '2026-11-19', cityId: 'nyc' };
    expect(replayTargetOfRow({ city_id: 'nyc', local_date: '2026-11-19', actual_max: 51 }, cities, NOW)).toEqual(nine);
    expect(
      replayTargetOfRow({ city_id: 'nyc', local_date: '2026-11-19', fetched_at: '2026-11-18T20:00:00Z' }, cities, NOW),
    ).toEqual(nine);
  });

  it('nothing for a day not over yet, a city the cache does not hold, or a row without a city-day', () => {
    // 15:00Z on 11-21 is 16:00 in Paris: its 11-21 is not over; New York's 11-20 is
    expect(replayTargetOfRow({ city_id: 'paris', local_date: '2026-11-21' }, cities, NOW)).toBeNull();
    expect(replayTargetOfRow({ city_id: 'nyc', local_date: '2026-11-20' }, cities, NOW)).not.toBeNull();
    expect(replayTargetOfRow({ city_id: 'atlantis', local_date: '2026-11-20' }, cities, NOW)).toBeNull();
    expect(replayTargetOfRow({ id: 4, temp_c: 10 }, cities, NOW)).toBeNull();
    expect(replayTargetOfRow({ city_id: 'paris', local_date: 'soon' }, cities, NOW)).toBeNull();
  });
});

describe('the t prompt’s span (issue 44 item 8)', () => {
  // a cache from 2026-12-02 06:00Z whose newest row is 12:34Z (13:34 in Paris); the monitor's clock (the service's)
  const span = { firstMs: Date.parse('2026-12-02T06:00:00Z'), lastMs: Date.parse('2026-12-02T12:34:00Z') };
  const fresh = spanFreshMs({ current: 60_000, metar: 60_000, 'mkta-buckets': 60_000, daily: 1_800_000 });

  it('without a pass, ends at the newest row and says how long before now', () => {
    // now 12:54Z = 13:54 Paris: 20 minutes past the newest row, more than two minute-stream intervals (2 min)
    expect(fresh).toBe(120_000);
    expect(spanText(span, PARIS.tz, Date.parse('2026-12-02T12:54:00Z'), fresh)).toBe(
      'the cache spans 2026-12-02 07:00 to 2026-12-02 13:34 local, 20m before now: nothing synced since',
    );
  });

  it('ends at the streams’ newest pass, fresh on this machine’s clock where the pass kept it', () => {
    // the service's last report is 12:34Z, the metar stream passed at 12:53:30Z (13:53 Paris) on the service's clock,
    // 12:53:30Z on this machine's too: at 12:54Z that is 30 s ago, within 2 min: to now, whatever the newest row
    const states = [
      {
        stream: 'metar',
        last_success_at: '2026-12-02T12:53:30Z',
        last_success_host_ms: Date.parse('2026-12-02T12:53:30Z'),
      },
      { stream: 'daily', last_success_at: '2026-12-02T12:59:00Z', last_success_host_ms: null },
      { stream: 'mkta-buckets', last_success_at: null, last_success_host_ms: null },
    ];
    const synced = syncedTo(states);
    // the daily stream is no minute stream: metar's pass is the newest
    expect(synced).toEqual({ atMs: Date.parse('2026-12-02T12:53:30Z'), hostMs: Date.parse('2026-12-02T12:53:30Z') });
    const now = Date.parse('2026-12-02T12:54:00Z');
    expect(spanText(span, PARIS.tz, now, fresh, synced, now)).toBe(
      'the cache spans 2026-12-02 07:00 to now (newest row 2026-12-02 13:34) local',
    );
    // the sync stopped: 10 minutes later on both clocks the pass is 10m30s old, past 2 min; the cache ends at 13:53
    const later = Date.parse('2026-12-02T13:04:00Z');
    expect(spanText(span, PARIS.tz, later, fresh, synced, later)).toBe(
      'the cache spans 2026-12-02 07:00 to 2026-12-02 13:53 local, 10m before now: nothing synced since',
    );
    // a service at x120: its clock is 2 h past the pass, this machine's 60 s: still now
    const demo = { atMs: Date.parse('2026-12-02T12:53:30Z'), hostMs: 1_000_000 };
    expect(spanText(span, PARIS.tz, Date.parse('2026-12-02T14:53:30Z'), fresh, demo, 1_060_000)).toBe(
      'the cache spans 2026-12-02 07:00 to now (newest row 2026-12-02 13:34) local',
    );
  });

  it('"to now" only while the newest row is within two intervals of now', () => {
    // 12:36Z: 2 minutes after the newest row, within 2 x 60 s
    expect(spanText(span, PARIS.tz, Date.parse('2026-12-02T12:36:00Z'), fresh)).toBe(
      'the cache spans 2026-12-02 07:00 to now (newest row 2026-12-02 13:34) local',
    );
    // 12:36:01Z: a second more, and it says the gap
    expect(spanText(span, PARIS.tz, Date.parse('2026-12-02T12:36:01Z'), fresh)).toBe(
      'the cache spans 2026-12-02 07:00 to 2026-12-02 13:34 local, 2m before now: nothing synced since',
    );
    // streams polled every 5 minutes: 10 minutes is still now
    expect(spanFreshMs({ current: 300_000, metar: 300_000, 'mkta-buckets': 300_000, 'mktb-buckets': 300_000 })).toBe(
      600_000,
    );
    expect(spanText(null, PARIS.tz, Date.parse('2026-12-02T12:36:00Z'), fresh)).toBe('the cache holds no rows yet');
  });
});
