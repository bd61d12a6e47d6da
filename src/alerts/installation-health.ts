import type { StreamState } from '../cache/index.js';
import { duration } from '../domain/clock-offset.js';
import { pollAgeMs, streamHealth } from './stream-health.js';

/**
 * What makes `svc-monitor status` say an installation needs a person (DESIGN 3, exit 1): a stream whose last good
 * pass is older than three of its intervals (or that never had one), a listener refusing what it is sent, a notify
 * command that failed in the last day and nobody acknowledged. The status bar's own marks (stream-health.ts) are
 * earlier and softer: they are for a person already looking.
 */
export const STALE_AFTER_INTERVALS = 3;

/** How far back an unacknowledged `notify-command-failed` alert still says the command is failing. */
export const NOTIFY_FAILURES_WITHIN_MS = 86_400_000;

/** `ok`; `stale` past three intervals (or never synced: `never`); `failing`: the last pass failed, not stale yet. */
export type StreamVerdict = 'ok' | 'stale' | 'failing' | 'never';

export interface StreamCheck {
  stream: string;
  verdict: StreamVerdict;
  /** Since the last good pass, on the monitor's clock; null without one. */
  ageMs: number | null;
  intervalMs: number;
  staleAfterMs: number;
}

/**
 * One stream judged against its interval: its age is on the monitor's clock (`nowMs`, the service's), but whether it is
 * stale on the host's (`hostNowMs`), where its polls are timed: a reference service at `--speed 60` lives an hour a
 * real minute, and every stream polled a minute ago would be an hour old on its clock. A pass recorded without the
 * host's clock (a cache from before) is judged on the monitor's, which is the host's at a real service.
 */
export function checkStream(
  state: StreamState | undefined,
  stream: string,
  nowMs: number,
  intervalMs: number,
  hostNowMs: number = nowMs,
): StreamCheck {
  const { health, ageMs } = streamHealth(state, stream, nowMs, intervalMs);
  const staleAfterMs = STALE_AFTER_INTERVALS * intervalMs;
  const polled = pollAgeMs(state, ageMs, hostNowMs);
  const verdict: StreamVerdict =
    ageMs === null || polled === null
      ? 'never'
      : polled > staleAfterMs
        ? 'stale'
        : health === 'failing'
          ? 'failing'
          : 'ok';
  return { stream, verdict, ageMs, intervalMs, staleAfterMs };
}

export interface ListenerFacts {
  refusing: boolean;
  refusalsLastHour: number | null;
  lastRefusalAt: string | null;
  /** What the last refusal was refused for: the line says what to fix. */
  lastRefusalCause: 'signature' | 'replay' | null;
}

export interface NotifyFailures {
  count: number;
  newestAt: string | null;
}

/** A duration as the status line says it (domain/clock-offset.ts; the daemon's lines say it the same way). */
export { duration };

/** The lines of what needs a person, in the order a person would look: streams, listener, notify command. */
export function installationProblems(
  streams: readonly StreamCheck[],
  listener: ListenerFacts,
  notify: NotifyFailures,
): string[] {
  const problems: string[] = [];
  for (const s of streams) {
    const every = `every ${duration(s.intervalMs)}, stale past ${duration(s.staleAfterMs)}`;
    if (s.verdict === 'never') problems.push(`${s.stream}: never synced (${every})`);
    if (s.verdict === 'stale' && s.ageMs !== null)
      problems.push(`${s.stream}: stale, last success ${duration(s.ageMs)} ago (${every})`);
  }
  if (listener.refusing) {
    const count = listener.refusalsLastHour === null ? '' : `${listener.refusalsLastHour} refused in the last hour, `;
    const why =
      listener.lastRefusalCause === 'replay'
        ? "refused as replays on a clock more than 24 h ahead of the service's: run `svc-monitor sync` against " +
          "the service, or check the service's clock"
        : "the configured webhook secret does not match the service's";
    problems.push(`listener refusing: ${count}the last at ${listener.lastRefusalAt ?? 'unknown'}; ${why}`);
  }
  if (notify.count > 0)
    problems.push(
      `notify_command failing: ${notify.count} unacknowledged failure${notify.count === 1 ? '' : 's'} ` +
        `in the last day, the newest at ${notify.newestAt}`,
    );
  return problems;
}
