import { describe, expect, it } from 'vitest';
import { RefusalLog } from '../../src/receiver/refusal-log.js';
import { replayReason } from '../../src/receiver/replay.js';
import { edgeEvent, insuranceEvent, testEvent } from '../helpers/webhook-events.js';

describe('refusal lines: at most one a second, the rest counted in the next', () => {
  it('logs the first at once, holds the rest of its second, then says the last with how many more', () => {
    const lines: string[] = [];
    let now = Date.parse('2026-11-21T12:00:00.000Z');
    const log = new RefusalLog(
      (l) => lines.push(l),
      () => now,
    );
    log.refused('a');
    now += 100;
    log.refused('b');
    now += 100;
    log.refused('c');
    expect(lines).toEqual(['a']);
    // the second's end (close says it at once): c, and b besides it, since the line of 12:00:00.000
    log.close();
    expect(lines).toEqual(['a', 'c, and 1 more refused since 2026-11-21T12:00:00.000Z']);
    // that line opened a second at 12:00:00.200; 12:00:01.300 is past it: logged at once, alone
    now += 1_100;
    log.refused('d');
    expect(lines).toEqual(['a', 'c, and 1 more refused since 2026-11-21T12:00:00.000Z', 'd']);
    log.close();
    expect(lines).toHaveLength(3);
  });

  it('a single held one is said without a count', () => {
    const lines: string[] = [];
    let now = 0;
    const log = new RefusalLog(
      (l) => lines.push(l),
      () => now,
    );
    log.refused('a');
    now = 500;
    log.refused('b');
    log.close();
    expect(lines).toEqual(['a', 'b']);
  });
});

describe('a replay: more than 24 h older than the service’s clock', () => {
  const now = Date.parse('2026-11-22T16:00:00Z');

  it('refuses a test or insurance event by created_at, 25 h old', () => {
    // 2026-11-21T15:00:00Z is 25 h before 2026-11-22T16:00:00Z
    const old = { ...testEvent(), created_at: '2026-11-21T15:00:00Z' };
    expect(replayReason(old, now)).toBe("created_at 2026-11-21T15:00:00Z is 25h older than the service's clock");
    const kill = insuranceEvent('insurance.pick.killed', { createdAt: '2026-11-21T15:00:00Z' });
    expect(replayReason(kill, now)).toBe("created_at 2026-11-21T15:00:00Z is 25h older than the service's clock");
  });

  it('accepts one exactly 24 h old, and one a minute inside', () => {
    expect(replayReason({ ...testEvent(), created_at: '2026-11-21T16:00:00Z' }, now)).toBeNull();
    expect(replayReason({ ...testEvent(), created_at: '2026-11-21T16:01:00Z' }, now)).toBeNull();
    // one second past the 24 h: refused, 24 whole hours old
    expect(replayReason({ ...testEvent(), created_at: '2026-11-21T15:59:59Z' }, now)).toBe(
      "created_at 2026-11-21T15:59:59Z is 24h older than the service's clock",
    );
  });

  it('judges an edge event by its trade’s executed_at (it has no created_at), offset and all', () => {
    // 2026-11-21T13:30:00+02:00 is 11:30Z, 28 h 30 min before 16:00Z the next day
    const exit = edgeEvent('edge.trade.exited', { tradeId: 104, executedAt: '2026-11-21T13:30:00+02:00' });
    expect(replayReason(exit, now)).toBe(
      "trade.executed_at 2026-11-21T13:30:00+02:00 is 28h older than the service's clock",
    );
  });
});
