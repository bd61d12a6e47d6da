import type { StrategyFamily } from '../contract/strategies.js';

/**
 * The streams the monitor polls, in the order a sync pass runs them, each with its default poll interval (ms).
 * The sync engine schedules from it; the status bar and the alert rules judge a stream stale against it (a user's
 * own intervals override these).
 */
export const DEFAULT_INTERVALS_MS = {
  cities: 3_600_000,
  current: 60_000,
  forecasts: 300_000,
  no24: 120_000,
  yescore: 120_000,
  'svc-max-picks': 120_000,
  'fusion-locks': 30_000,
} as const satisfies Record<'cities' | 'current' | 'forecasts' | StrategyFamily | 'fusion-locks', number>;

export type PolledStream = keyof typeof DEFAULT_INTERVALS_MS;

/** The polled streams in the order a pass runs them. */
export const POLLED_STREAMS = Object.keys(DEFAULT_INTERVALS_MS) as PolledStream[];
