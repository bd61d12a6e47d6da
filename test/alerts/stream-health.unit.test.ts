import { describe, expect, it } from 'vitest';
import { allStreamHealth, streamHealth } from '../../src/alerts/stream-health.js';
import type { StreamState } from '../../src/cache/index.js';

const NOW = Date.parse('2026-11-21T15:00:00Z');
const at = (msAgo: number) => new Date(NOW - msAgo).toISOString();
const state = (stream: string, fields: Partial<StreamState>): StreamState => ({
  stream,
  last_success_at: null,
  last_error_at: null,
  last_error: null,
  rows: 0,
  complete_at: null,
  last_success_host_ms: null,
  ...fields,
});
const MINUTE = 60_000;

describe('stream health', () => {
  it('is ok up to two polls behind, stale past two, dead past five', () => {
    const health = (ago: number) =>
      streamHealth(state('current', { last_success_at: at(ago) }), 'current', NOW, MINUTE);
    expect(health(2 * MINUTE)).toEqual({ stream: 'current', health: 'ok', ageMs: 2 * MINUTE, error: null });
    expect(health(2 * MINUTE + 1).health).toBe('stale');
    expect(health(5 * MINUTE).health).toBe('stale');
    expect(health(5 * MINUTE + 1).health).toBe('dead');
  });

  it("is stale or dead by the host's clock when the pass kept it, its age on the service's", () => {
    // a service at --speed 60: its clock says the pass was an hour ago; the host's says 90 s, then 121 s, then 301 s
    const s = state('current', { last_success_at: at(60 * MINUTE), last_success_host_ms: 5_000_000 });
    const polledAgo = (hostNowMs: number) => streamHealth(s, 'current', NOW, MINUTE, true, hostNowMs);
    expect(polledAgo(5_090_000)).toEqual({ stream: 'current', health: 'ok', ageMs: 60 * MINUTE, error: null });
    // two polls of 60 s: stale past 120 s, dead past 300 s
    expect(polledAgo(5_121_000).health).toBe('stale');
    expect(polledAgo(5_301_000).health).toBe('dead');
    // a pass recorded without the host's clock: the hour on the service's clock decides (dead)
    const older = state('current', { last_success_at: at(60 * MINUTE) });
    expect(streamHealth(older, 'current', NOW, MINUTE, true, 5_090_000).health).toBe('dead');
  });

  it('is failing when the last poll failed after the last success, whatever its age', () => {
    const s = state('forecasts', { last_success_at: at(10_000), last_error_at: at(5_000), last_error: 'timeout' });
    expect(streamHealth(s, 'forecasts', NOW, 5 * MINUTE)).toEqual({
      stream: 'forecasts',
      health: 'failing',
      ageMs: 10_000,
      error: 'timeout',
    });
    // a success after the error has mended it
    const mended = { ...s, last_success_at: at(1_000) };
    expect(streamHealth(mended, 'forecasts', NOW, 5 * MINUTE).health).toBe('ok');
  });

  it('is never before a first good sync, and failing when that first poll failed', () => {
    expect(streamHealth(undefined, 'cities', NOW, MINUTE)).toEqual({
      stream: 'cities',
      health: 'never',
      ageMs: null,
      error: null,
    });
    expect(streamHealth(state('cities', { last_error_at: at(1) }), 'cities', NOW, MINUTE).health).toBe('failing');
  });

  it('covers every polled stream in the order a pass runs them, then the ones only the cache knows', () => {
    const states = [state('zz-extra', { last_success_at: at(0) }), state('no24', { last_success_at: at(0) })];
    const all = allStreamHealth(states, NOW, {});
    expect(all.map((h) => h.stream)).toEqual([
      'cities',
      'current',
      'forecasts',
      'no24',
      'yescore',
      'svc-max-picks',
      'fusion-locks',
      'metar',
      'mkta-buckets',
      'mktb-buckets',
      'daily',
      'zz-extra',
    ]);
    expect(all.find((h) => h.stream === 'no24')?.health).toBe('ok');
  });

  it('judges staleness against the configured interval, else the default one', () => {
    // fusion locks poll every 30 s by default: three minutes is dead; polled every 10 minutes it is fine
    const states = [state('fusion-locks', { last_success_at: at(3 * MINUTE) })];
    const locks = (intervals: Record<string, number>) =>
      allStreamHealth(states, NOW, intervals).find((h) => h.stream === 'fusion-locks')?.health;
    expect(locks({})).toBe('dead');
    expect(locks({ 'fusion-locks': 10 * MINUTE })).toBe('ok');
  });
});
