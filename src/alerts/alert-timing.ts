import type { NewAlert } from '../cache/index.js';
import { DEFAULT_INTERVALS_MS, type PolledStream } from '../domain/streams.js';

/** Each stream's poll interval (ms): the config's, else the default. */
export type StreamIntervals = Partial<Record<PolledStream, number>>;

/**
 * The poll intervals as the market's clock counts them. Polls are timed on the host's clock, alerts are stamped on
 * the service's (DESIGN 4 "the monitor's clock"), which a reference service at `--speed 120` runs 120 times faster:
 * there a poll a real minute apart is two hours of its readings apart. `rate`: the service's seconds a host second,
 * as the caller has seen them go by (1 at a real service, and before it has seen any).
 */
export function marketIntervals(intervals: Readonly<Record<string, number>>, rate: number): StreamIntervals {
  const out: StreamIntervals = {};
  for (const stream of Object.keys(DEFAULT_INTERVALS_MS) as PolledStream[])
    out[stream] = (intervals[stream] ?? DEFAULT_INTERVALS_MS[stream]) * Math.max(1, rate);
  return out;
}

/** How many poll intervals of its stream an alert's instant may lie before the pass that finds it, and be news. */
const FRESH_INTERVALS = 2;

/**
 * The streams an alert of a market kind waits on before a pass can find it: a dying bucket and a breakthrough, the
 * METAR reading's; an edge, its venue's snapshot and also the METAR and the desk's forecast, since the board offers an
 * edge only once both have been polled past the snapshot (board/same-instant.ts): found up to the slowest of the three
 * after its instant, and still news.
 */
const streamsOf = (alert: NewAlert & { stream?: PolledStream }): PolledStream[] =>
  alert.stream === undefined
    ? ['metar']
    : alert.kind === 'edge'
      ? [alert.stream, 'metar', 'forecasts']
      : [alert.stream];

/**
 * DESIGN 4 "alerts in time": an alert is stamped with the instant of the reading or snapshot that made it true; one
 * whose instant is more than two poll intervals of its stream before `nowMs` was found late (the first sync of a
 * cache, a start after a gap, a catch-up pass) and is marked `catch_up`: listed by its own instant, never notified.
 * A bucket that died hours before the monitor started is history, not news. `intervals`: on the market's clock
 * (`marketIntervals`).
 */
export function markCatchUp<A extends NewAlert & { stream?: PolledStream }>(
  alerts: readonly A[],
  nowMs: number,
  intervals: StreamIntervals = {},
): A[] {
  return alerts.map((alert) => {
    const every = Math.max(...streamsOf(alert).map((stream) => intervals[stream] ?? DEFAULT_INTERVALS_MS[stream]));
    const late = nowMs - Date.parse(alert.created_at) > FRESH_INTERVALS * every;
    return late ? { ...alert, catch_up: true } : alert;
  });
}

/** Below this the two clocks run alike: a real service's offset moves by milliseconds between answers. */
const SAME_RATE = 1.5;
/** The least host time between two passes whose instants say how fast the market's clock runs. */
const RATE_BASELINE_MS = 2_000;

/**
 * How fast the market's clock runs against the host's, from the streams' last good passes: each kept both clocks
 * when it ended (`last_success_at` on the market's, `last_success_host_ms` on the host's), and two passes seconds
 * apart on the host's clock are minutes apart on a reference service's at `--speed`. 1 when they run alike or the
 * passes are too close together to say; null without two passes to compare.
 */
export function clockRateOf(
  states: readonly { last_success_at: string | null; last_success_host_ms: number | null }[],
): number | null {
  const pairs = states.flatMap((s) => {
    const market = s.last_success_at === null ? Number.NaN : Date.parse(s.last_success_at);
    return Number.isFinite(market) && s.last_success_host_ms !== null ? [{ market, host: s.last_success_host_ms }] : [];
  });
  if (pairs.length < 2) return null;
  pairs.sort((a, b) => a.host - b.host);
  const first = pairs[0] as (typeof pairs)[number];
  const last = pairs[pairs.length - 1] as (typeof pairs)[number];
  if (last.host - first.host < RATE_BASELINE_MS) return null;
  const rate = (last.market - first.market) / (last.host - first.host);
  return rate < SAME_RATE ? 1 : rate;
}
