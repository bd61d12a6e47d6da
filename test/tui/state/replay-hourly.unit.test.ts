import { describe, expect, it } from 'vitest';
import { isHourly, type Replay, replayReducer } from '../../../src/tui/state/replay.js';

/** Instants of 2026-11-20 (UTC) by their clock time; rows before 10:00Z were thinned to the hour. */
const at = (hhmm: string) => Date.parse(`2026-11-20T${hhmm}:00Z`);
const NOW = at('13:00');
const paused = (hhmm: string): Replay => ({
  atMs: at(hhmm),
  date: '2026-11-20',
  firstMs: at('06:00'),
  speed: 60,
  playing: false,
  hourlyBeforeMs: at('10:00'),
});
const step = (hhmm: string, by: 1 | -1) =>
  new Date((replayReducer(paused(hhmm), { type: 'step', by, nowMs: NOW }) as Replay).atMs).toISOString().slice(11, 16);

describe('time travel over a thinned day', () => {
  it('keeps the instant before which rows were thinned, from its start', () => {
    const started = replayReducer(null, {
      type: 'start',
      atMs: at('08:10'),
      date: '2026-11-20',
      firstMs: at('06:00'),
      hourlyBeforeMs: at('10:00'),
    });
    expect(started).toEqual(paused('08:10'));
    expect(isHourly(started as Replay)).toBe(true);
    expect(isHourly(paused('10:00'))).toBe(false);
  });

  it('steps to the whole hour after or before while the step is on the thinned side, half hours after it', () => {
    // 08:10 -> 09:00 -> (09:00 + 30 min is 09:30, still thinned) 10:00; 10:00 + 30 min is whole: 10:30
    expect([step('08:10', 1), step('09:00', 1), step('10:00', 1)]).toEqual(['09:00', '10:00', '10:30']);
    // back: 08:10 -> 08:00, 09:00 -> 08:00; from 10:00 the step to 09:30 is thinned: the hour before, 09:00
    expect([step('08:10', -1), step('09:00', -1), step('10:00', -1), step('10:30', -1)]).toEqual([
      '08:00',
      '08:00',
      '09:00',
      '10:00',
    ]);
  });

  it('without a thinned instant steps half hours, as before', () => {
    const { hourlyBeforeMs: _, ...whole } = paused('08:10');
    expect(replayReducer(whole, { type: 'step', by: 1, nowMs: NOW })?.atMs).toBe(at('08:40'));
    expect(isHourly(whole)).toBe(false);
  });
});
