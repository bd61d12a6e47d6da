import { describe, expect, it } from 'vitest';
import { checkStream, installationProblems } from '../../src/alerts/installation-health.js';
import type { StreamState } from '../../src/cache/index.js';

const NOW = Date.parse('2026-11-21T12:00:00Z');
const state = (over: Partial<StreamState>): StreamState => ({
  stream: 'metar',
  last_success_at: null,
  last_error_at: null,
  last_error: null,
  rows: 1,
  complete_at: null,
  last_success_host_ms: null,
  ...over,
});
const quiet = { refusing: false, refusalsLastHour: 0, lastRefusalAt: null, lastRefusalCause: null };
const noFailures = { count: 0, newestAt: null };

describe('what makes an installation need a person (status, exit 1)', () => {
  it("is judged stale on the host's clock when the pass kept it, its age staying on the service's", () => {
    // a service at --speed 60: its clock says the pass was an hour ago (3,600 s), the host's says 61 s
    const pass = state({ last_success_at: '2026-11-21T11:00:00Z', last_success_host_ms: 1_000_000 });
    const fresh = checkStream(pass, 'metar', NOW, 60_000, 1_061_000);
    expect(fresh).toEqual({
      stream: 'metar',
      verdict: 'ok',
      ageMs: 3_600_000,
      intervalMs: 60_000,
      staleAfterMs: 180_000,
    });
    // 180 s of the host's clock is not past three intervals; 181 s is
    expect(checkStream(pass, 'metar', NOW, 60_000, 1_180_000).verdict).toBe('ok');
    expect(checkStream(pass, 'metar', NOW, 60_000, 1_181_000).verdict).toBe('stale');
    // a pass from before the cache kept the host's clock: the service's clock decides (an hour: stale)
    const older = state({ last_success_at: '2026-11-21T11:00:00Z' });
    expect(checkStream(older, 'metar', NOW, 60_000, 1_061_000).verdict).toBe('stale');
  });

  it('a stream is stale past three of its intervals, not at them', () => {
    // every 60 s: stale past 180 s; 11:57:00 is exactly 180 s before noon, 11:56:59 is 181 s
    const at = (iso: string) => checkStream(state({ last_success_at: iso }), 'metar', NOW, 60_000);
    expect(at('2026-11-21T11:57:00Z')).toEqual({
      stream: 'metar',
      verdict: 'ok',
      ageMs: 180_000,
      intervalMs: 60_000,
      staleAfterMs: 180_000,
    });
    expect(at('2026-11-21T11:56:59Z').verdict).toBe('stale');
  });

  it('a failing stream that answered within three intervals is failing, not stale; none ever is never', () => {
    const failing = state({
      last_success_at: '2026-11-21T11:58:00Z',
      last_error_at: '2026-11-21T11:59:00Z',
      last_error: 'HTTP 503',
    });
    expect(checkStream(failing, 'metar', NOW, 60_000).verdict).toBe('failing');
    expect(checkStream(undefined, 'daily', NOW, 1_800_000)).toEqual({
      stream: 'daily',
      verdict: 'never',
      ageMs: null,
      intervalMs: 1_800_000,
      staleAfterMs: 5_400_000,
    });
  });

  it('says each problem in one line: stale and never-synced streams, a refusing listener, a failing notify command', () => {
    const stale = checkStream(state({ last_success_at: '2026-11-21T11:47:55Z' }), 'metar', NOW, 60_000);
    const never = checkStream(undefined, 'daily', NOW, 1_800_000);
    const ok = checkStream(state({ last_success_at: '2026-11-21T11:59:30Z' }), 'current', NOW, 60_000);
    expect(installationProblems([ok], quiet, noFailures)).toEqual([]);
    expect(
      installationProblems(
        [stale, never, ok],
        { refusing: true, refusalsLastHour: 4, lastRefusalAt: '2026-11-21T11:58:10Z', lastRefusalCause: 'signature' },
        { count: 2, newestAt: '2026-11-21T09:00:00Z' },
      ),
    ).toEqual([
      // 12:00:00 - 11:47:55 = 12 min 5 s; 3 x 60 s = 3 min
      'metar: stale, last success 12m05s ago (every 1m00s, stale past 3m00s)',
      // 3 x 30 min = 1 h 30 min
      'daily: never synced (every 30m00s, stale past 1h30m)',
      "listener refusing: 4 refused in the last hour, the last at 2026-11-21T11:58:10Z; the configured webhook secret does not match the service's",
      'notify_command failing: 2 unacknowledged failures in the last day, the newest at 2026-11-21T09:00:00Z',
    ]);
  });

  it('says what to fix when the listener refuses deliveries as replays (its clock, not its secret)', () => {
    const refusing = {
      refusing: true,
      refusalsLastHour: 3,
      lastRefusalAt: '2026-11-21T11:58:10Z',
      lastRefusalCause: 'replay' as const,
    };
    expect(installationProblems([], refusing, noFailures)).toEqual([
      'listener refusing: 3 refused in the last hour, the last at 2026-11-21T11:58:10Z; refused as replays on a ' +
        "clock more than 24 h ahead of the service's: run `svc-monitor sync` against the service, or check the " +
        "service's clock",
    ]);
  });
});
