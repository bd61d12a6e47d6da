import { describe, expect, it } from 'vitest';
import { type Replay, replayReducer } from '../../../src/tui/state/replay.js';

/** Instants of 2026-11-20 (UTC) by their clock time. */
const at = (hhmm: string, date = '2026-11-20') => Date.parse(`${date}T${hhmm}:00Z`);
const FIRST = at('06:00');
const NOW = at('13:00');

/** A replay at `hhmm`, paused at x60, as `start` leaves it. */
const paused = (hhmm: string): Replay => ({
  atMs: at(hhmm),
  date: '2026-11-20',
  firstMs: FIRST,
  speed: 60,
  playing: false,
});

describe('time travel’s state', () => {
  it('starts paused at x60 on the instant and the day given; a new start keeps the speed and pauses, a day from History starts at x60', () => {
    const started = replayReducer(null, { type: 'start', atMs: at('08:30'), date: '2026-11-20', firstMs: FIRST });
    expect(started).toEqual(paused('08:30'));
    const fast = { ...paused('08:30'), speed: 600, playing: true };
    expect(replayReducer(fast, { type: 'start', atMs: at('10:00'), date: '2026-11-19', firstMs: FIRST })).toEqual({
      ...paused('10:00'),
      date: '2026-11-19',
      speed: 600,
    });
    // a day chosen to replay from History starts over, at x60 (it kept x3600 from the last review)
    const fastest = { ...paused('08:30'), speed: 3600, playing: true };
    const day = { type: 'start', atMs: at('10:00'), date: '2026-11-19', firstMs: FIRST, day: true } as const;
    expect(replayReducer(fastest, day)).toEqual({ ...paused('10:00'), date: '2026-11-19' });
  });

  it('steps half an hour either way, never before the cache’s first row nor past now', () => {
    expect(replayReducer(paused('08:30'), { type: 'step', by: 1, nowMs: NOW })?.atMs).toBe(at('09:00'));
    expect(replayReducer(paused('08:30'), { type: 'step', by: -1, nowMs: NOW })?.atMs).toBe(at('08:00'));
    // 06:20 back half an hour is 05:50, before the first row at 06:00: it stops there
    expect(replayReducer(paused('06:20'), { type: 'step', by: -1, nowMs: NOW })?.atMs).toBe(FIRST);
    // 12:50 on half an hour is 13:20, after now (13:00): it stops at now
    expect(replayReducer(paused('12:50'), { type: 'step', by: 1, nowMs: NOW })?.atMs).toBe(NOW);
    // already there: the same state, nothing to draw again
    const atNow = paused('13:00');
    expect(replayReducer(atNow, { type: 'step', by: 1, nowMs: NOW })).toBe(atNow);
    // the day stays pinned past its midnight
    const late = { ...paused('23:45'), firstMs: FIRST };
    expect(replayReducer(late, { type: 'step', by: 1, nowMs: at('12:00', '2026-11-21') })).toEqual({
      ...late,
      atMs: at('00:15', '2026-11-21'),
    });
  });

  it('plays at its speed: a tick of 1 s at x60 is a minute, x600 ten; reaching now pauses it there', () => {
    const playing = replayReducer(paused('08:30'), { type: 'play' }) as Replay;
    expect(playing.playing).toBe(true);
    expect(replayReducer(playing, { type: 'tick', elapsedMs: 1000, nowMs: NOW })?.atMs).toBe(at('08:31'));
    expect(replayReducer({ ...playing, speed: 600 }, { type: 'tick', elapsedMs: 1000, nowMs: NOW })?.atMs).toBe(
      at('08:40'),
    );
    // 12:59:30 + 60 s is past 13:00: at now, paused
    const end = { ...playing, atMs: at('12:59') + 30_000 };
    expect(replayReducer(end, { type: 'tick', elapsedMs: 1000, nowMs: NOW })).toEqual({
      ...end,
      atMs: NOW,
      playing: false,
    });
    // paused, a tick changes nothing; Space again pauses
    const still = paused('08:30');
    expect(replayReducer(still, { type: 'tick', elapsedMs: 1000, nowMs: NOW })).toBe(still);
    expect(replayReducer(playing, { type: 'play' })?.playing).toBe(false);
  });

  it('+ and - go up and down the speeds, and stay at either end', () => {
    const speed = (from: number, by: 1 | -1) =>
      replayReducer({ ...paused('08:30'), speed: from }, { type: 'speed', by });
    expect(speed(60, 1)?.speed).toBe(120);
    expect(speed(60, -1)?.speed).toBe(30);
    expect(speed(3600, 1)?.speed).toBe(3600);
    expect(speed(15, -1)?.speed).toBe(15);
  });

  it('Esc is live again; live, the replay keys and the timer change nothing', () => {
    expect(replayReducer(paused('08:30'), { type: 'live' })).toBeNull();
    expect(replayReducer(null, { type: 'step', by: 1, nowMs: NOW })).toBeNull();
    expect(replayReducer(null, { type: 'tick', elapsedMs: 1000, nowMs: NOW })).toBeNull();
    expect(replayReducer(null, { type: 'play' })).toBeNull();
  });
});
