import { RULE_STEP_MS } from '../../alerts/trader-alert-replay.js';
/**
 * Time travel's state (DESIGN 3 `t`, `--at`): the instant every pane shows the cache as of, the market day it pins in
 * every city, and how it plays. Null is live: the panes read the cache as it stands. Pure: the reducer is the whole
 * of how the keys move it (use-replay.ts runs it and the play timer).
 */
export interface Replay {
  /** The instant shown (epoch ms). */
  atMs: number;
  /** The market day shown in every city (its local date), kept past its midnight: passed, then settled. */
  date: string;
  /** The cache's first instant: no step goes before it. */
  firstMs: number;
  /** Simulated seconds a real second while playing. */
  speed: number;
  playing: boolean;
  /**
   * Rows before this instant were thinned to the hour by retention (DESIGN 4, the cache's `thinnedBefore`): there the
   * steps are whole hours and the banner says `hourly`. Absent: nothing was thinned.
   */
  hourlyBeforeMs?: number;
}

export type ReplayState = Replay | null;

/** `←` / `→`: half an hour, the step the trader rules' replay runs at (so a step lands on a step run). */
export const STEP_MS = RULE_STEP_MS;
/** `←` / `→` on a thinned day: to the whole hour before or after, what retention kept. */
export const HOURLY_STEP_MS = 60 * 60_000;

/** Whether the replay shows a thinned day (the steps are whole hours there). */
export const isHourly = (r: Replay, atMs = r.atMs): boolean =>
  r.hourlyBeforeMs !== undefined && atMs < r.hourlyBeforeMs;

/** The next instant `←` / `→` goes to: half an hour, or on a thinned day the whole hour (UTC) before or after. */
function stepFrom(r: Replay, by: 1 | -1): number {
  if (!isHourly(r, Math.min(r.atMs, r.atMs + by * STEP_MS))) return r.atMs + by * STEP_MS;
  const H = HOURLY_STEP_MS;
  return by === 1 ? Math.floor(r.atMs / H) * H + H : Math.ceil(r.atMs / H) * H - H;
}

/** The speeds `+` and `-` go through, simulated seconds a real second; x60 (a minute a second) to start. */
export const SPEEDS = [15, 30, 60, 120, 300, 600, 1800, 3600] as const;
export const FIRST_SPEED = 60;

export type ReplayAction =
  /**
   * `t`, History's Enter, `--at`: go to an instant and pin its day; paused, at the speed it had for `t` (a jump within
   * a review), at x60 for a day chosen to replay (`day`: History's Enter), as for the first replay.
   */
  | { type: 'start'; atMs: number; date: string; firstMs: number; day?: boolean; hourlyBeforeMs?: number }
  /** `←` / `→`: half an hour earlier or later, within the cache's span and not past now. */
  | { type: 'step'; by: 1 | -1; nowMs: number }
  /** `Space`. */
  | { type: 'play' }
  /** `+` / `-`: the next speed up or down. */
  | { type: 'speed'; by: 1 | -1 }
  /** The play timer: `elapsedMs` of real time went by. Reaching now pauses. */
  | { type: 'tick'; elapsedMs: number; nowMs: number }
  /** `Esc`: back to now. */
  | { type: 'live' };

const within = (r: Replay, atMs: number, nowMs: number) => Math.max(r.firstMs, Math.min(nowMs, atMs));

export function replayReducer(state: ReplayState, action: ReplayAction): ReplayState {
  if (action.type === 'start') {
    const { atMs, date, firstMs } = action;
    const speed = action.day || !state ? FIRST_SPEED : state.speed;
    const hourly = action.hourlyBeforeMs === undefined ? {} : { hourlyBeforeMs: action.hourlyBeforeMs };
    return { atMs, date, firstMs, speed, playing: false, ...hourly };
  }
  if (action.type === 'live' || state === null) return null;
  switch (action.type) {
    case 'step': {
      const atMs = within(state, stepFrom(state, action.by), action.nowMs);
      return atMs === state.atMs ? state : { ...state, atMs };
    }
    case 'play':
      return { ...state, playing: !state.playing };
    case 'speed': {
      const i = SPEEDS.indexOf(state.speed as (typeof SPEEDS)[number]);
      const speed = SPEEDS[Math.max(0, Math.min(SPEEDS.length - 1, i + action.by))] as number;
      return speed === state.speed ? state : { ...state, speed };
    }
    case 'tick': {
      if (!state.playing) return state;
      const atMs = within(state, state.atMs + action.elapsedMs * state.speed, action.nowMs);
      return { ...state, atMs, playing: atMs < action.nowMs };
    }
  }
}
