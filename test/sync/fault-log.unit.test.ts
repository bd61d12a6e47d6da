import { describe, expect, it } from 'vitest';
import { FaultLog } from '../../src/sync/fault-log.js';
import type { SyncError } from '../../src/sync/sync-summary.js';

/** Host instants: 03:00:00Z on the day of the test, then seconds after it. */
const T0 = Date.parse('2026-12-02T03:00:00Z');
const at = (seconds: number) => T0 + seconds * 1000;
const down = { stream: 'metar', error: 'metar', kind: 'unreachable' as const };
const failed = (
  error = 'GET /x: no answer after 5 attempts (last: ECONNREFUSED)',
  kind: SyncError['kind'] = 'unreachable',
) => ({
  stream: 'metar',
  error: { ...down, error, kind },
});
const answered = { stream: 'metar', counts: { fetched: 3, inserted: 1, updated: 0 } };

describe('the daemon’s fault log', () => {
  it('says a fault once, folds the failures after it, and says the recovery with the count and how long', () => {
    const lines: string[] = [];
    const faults = new FaultLog((line) => lines.push(line));
    faults.outcome(answered, at(0));
    // four failed passes a minute apart from 00:01:00, then an answer at 00:04:12
    for (const s of [60, 120, 180, 240]) faults.outcome(failed(), at(s));
    faults.outcome(answered, at(252));
    faults.outcome(answered, at(312));
    expect(lines).toEqual([
      'metar: GET /x: no answer after 5 attempts (last: ECONNREFUSED)',
      // 252 - 60 = 192 s = 3m12s
      'metar: recovered after 4 failed passes (3m12s)',
    ]);
  });

  it('a day down is the fault and one reminder an hour, not a line a pass', () => {
    const lines: string[] = [];
    const faults = new FaultLog((line) => lines.push(line));
    // a pass a minute for 24 hours: 1,440 failed passes from 00:00:00
    for (let minute = 0; minute < 1440; minute++) faults.outcome(failed(), at(minute * 60));
    // the fault at minute 0, then a reminder at minutes 60, 120, ... 1380: 23 of them
    expect(lines).toHaveLength(1 + 23);
    // the first reminder: passes of minutes 0..60, 61 of them, an hour after the first
    expect(lines[1]).toBe(
      'metar: still failing, 61 failed passes since 2026-12-02T03:00:00.000Z (1h00m): ' +
        'GET /x: no answer after 5 attempts (last: ECONNREFUSED)',
    );
    faults.outcome(answered, at(1440 * 60));
    // 1,440 passes, from 00:00 to 24:00: one day
    expect(lines.at(-1)).toBe('metar: recovered after 1440 failed passes (1d00h)');
  });

  it('says a failure of another kind, and a single failed pass in the singular', () => {
    const lines: string[] = [];
    const faults = new FaultLog((line) => lines.push(line));
    faults.outcome(failed(), at(0));
    faults.outcome(failed('GET /x: the service refused the request (400): bad since', 'refused'), at(60));
    faults.outcome(failed('GET /x: the service refused the request (400): bad since', 'refused'), at(120));
    faults.outcome(answered, at(125));
    faults.outcome(failed(), at(200));
    faults.outcome(answered, at(207));
    expect(lines).toEqual([
      'metar: GET /x: no answer after 5 attempts (last: ECONNREFUSED)',
      'metar: GET /x: the service refused the request (400): bad since',
      // from the first failure at 0 to 125: 2m05s, three passes
      'metar: recovered after 3 failed passes (2m05s)',
      'metar: GET /x: no answer after 5 attempts (last: ECONNREFUSED)',
      'metar: recovered after 1 failed pass (7s)',
    ]);
  });

  it('a stream flapping between two kinds of failure says each once in the run', () => {
    const lines: string[] = [];
    const faults = new FaultLog((line) => lines.push(line));
    const refused = failed('GET /x: the service refused the request (400): bad since', 'refused');
    for (let pass = 0; pass < 10; pass++) faults.outcome(pass % 2 === 0 ? failed() : refused, at(pass * 60));
    expect(lines).toEqual([
      'metar: GET /x: no answer after 5 attempts (last: ECONNREFUSED)',
      'metar: GET /x: the service refused the request (400): bad since',
    ]);
  });
});
