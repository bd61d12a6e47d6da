import { describe, expect, it } from 'vitest';
import { answersDuring, ServiceClock } from '../../src/client/service-clock.js';
import { signedDuration } from '../../src/domain/clock-offset.js';

/** A host clock the test moves by hand. */
function hostClock(startIso: string) {
  let ms = Date.parse(startIso);
  return { now: () => ms, move: (by: number) => (ms += by) };
}

describe('the monitor’s clock (DESIGN 4): the host’s plus the service’s offset at its last good answer', () => {
  it('is the host’s clock until an answer, then the service’s, moving with the host between answers', () => {
    const host = hostClock('2026-11-28T10:00:00Z');
    const clock = new ServiceClock({ hostNow: host.now });
    expect([clock.offsetMs(), clock.now().toISOString()]).toEqual([null, '2026-11-28T10:00:00.000Z']);
    // the service says 10:10:00 while the host reads 10:00:00: ten minutes ahead
    clock.observe('Sat, 28 Nov 2026 10:10:00 GMT');
    expect(clock.offsetMs()).toBe(600_000);
    host.move(2_500);
    expect(clock.now().toISOString()).toBe('2026-11-28T10:10:02.500Z');
    // a service behind the host: the offset is negative
    clock.observe('Sat, 28 Nov 2026 09:00:02 GMT');
    expect(clock.offsetMs()).toBe(-3_600_500);
  });

  it('starts from the offset a cache kept', () => {
    const host = hostClock('2026-11-28T10:00:00Z');
    expect(new ServiceClock({ hostNow: host.now, offsetMs: -90_000 }).now().toISOString()).toBe(
      '2026-11-28T09:58:30.000Z',
    );
  });

  it('keeps its offset through an answer without a readable Date, and says so once', () => {
    const host = hostClock('2026-11-28T10:00:00Z');
    const lines: string[] = [];
    const clock = new ServiceClock({ hostNow: host.now, offsetMs: 60_000, log: (l) => lines.push(l) });
    clock.observe(undefined);
    clock.observe('yesterday-ish');
    clock.observe(['', 'Sat, 28 Nov 2026 10:05:00 GMT']);
    expect(clock.offsetMs()).toBe(60_000);
    expect(lines).toEqual([
      "the service's answers carry no readable Date header; the monitor keeps an offset of +1m00s",
    ]);
    const fresh: string[] = [];
    new ServiceClock({ hostNow: host.now, log: (l) => fresh.push(l) }).observe(undefined);
    expect(fresh).toEqual([
      "the service's answers carry no readable Date header; the monitor keeps the machine's clock",
    ]);
  });

  it('takes a jump of over a day, and says so (a service restarted with --start)', () => {
    const host = hostClock('2026-11-28T10:00:00Z');
    const lines: string[] = [];
    const clock = new ServiceClock({ hostNow: host.now, log: (l) => lines.push(l) });
    clock.observe('Sat, 28 Nov 2026 10:00:00 GMT');
    // 23 h later on the service, no host time passed: within a day, taken silently
    clock.observe('Sun, 29 Nov 2026 09:00:00 GMT');
    expect(lines).toEqual([]);
    // then back three days and two hours: 3d02h from the last offset of +23h
    clock.observe('Thu, 26 Nov 2026 07:00:00 GMT');
    expect(clock.offsetMs()).toBe(-(2 * 86_400_000 + 3 * 3_600_000));
    expect(lines).toEqual([
      "the service's clock moved -3d02h since its last answer (a service restarted with --start?); the monitor follows it",
    ]);
  });

  it('tells a follower when the offset moved by a second or more', () => {
    const host = hostClock('2026-11-28T10:00:00Z');
    const told: number[] = [];
    const clock = new ServiceClock({ hostNow: host.now, onOffset: (ms) => told.push(ms) });
    clock.observe('Sat, 28 Nov 2026 10:00:05 GMT');
    host.move(400);
    // +4.6 s: 0.4 s from +5, not told
    clock.observe('Sat, 28 Nov 2026 10:00:05 GMT');
    host.move(800);
    // +3.8 s: 1.2 s from the +5 told
    clock.observe('Sat, 28 Nov 2026 10:00:05 GMT');
    expect(told).toEqual([5_000, 3_800]);
  });

  it('says when the service first answered in a pass, each pass its own', async () => {
    const host = hostClock('2026-11-28T10:00:00Z');
    const clock = new ServiceClock({ hostNow: host.now });
    let release: () => void = () => {};
    const gate = new Promise<void>((r) => {
      release = r;
    });
    const a = answersDuring(async () => {
      clock.observe('Sat, 28 Nov 2026 10:00:07 GMT');
      await gate;
      clock.observe('Sat, 28 Nov 2026 10:00:09 GMT');
      return 'a';
    });
    const b = answersDuring(async () => {
      clock.observe('Sat, 28 Nov 2026 10:00:08 GMT');
      return 'b';
    });
    const none = answersDuring(async () => 'none');
    release();
    expect(await a).toEqual({ value: 'a', answers: { firstMs: Date.parse('2026-11-28T10:00:07Z') } });
    expect(await b).toEqual({ value: 'b', answers: { firstMs: Date.parse('2026-11-28T10:00:08Z') } });
    expect(await none).toEqual({ value: 'none', answers: { firstMs: null } });
  });
});

describe('an offset in words', () => {
  it('keeps its two largest units, in whole seconds', () => {
    expect(
      [0, 7_900, -252_000, 3_600_000 + 5 * 60_000, -(3 * 86_400_000 + 4 * 3_600_000 + 59_000)].map(signedDuration),
    ).toEqual(['+0s', '+7s', '-4m12s', '+1h05m', '-3d04h']);
  });
});
