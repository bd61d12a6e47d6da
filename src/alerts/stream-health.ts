import type { StreamState } from '../cache/index.js';
import { DEFAULT_INTERVALS_MS, POLLED_STREAMS } from '../domain/streams.js';

/** ok; stale: two polls missed; dead: five missed; failing: the last poll failed; never: no good sync yet. */
export type Health = 'ok' | 'stale' | 'dead' | 'failing' | 'never';

export interface StreamHealth {
  stream: string;
  health: Health;
  /** Since the last good sync; null when there never was one. */
  ageMs: number | null;
  error: string | null;
}

const ms = (text: string | null) => (text === null ? null : Date.parse(text));

/**
 * How long since the stream's last good pass, for whether it still polls: on the host's clock (`hostNowMs`), where its
 * polls are timed, when the pass kept it; a reference service at `--speed 60` lives an hour a real minute, and on its
 * clock every stream polled a minute ago is an hour old. A pass recorded without it (a cache from before): its age on
 * the monitor's clock (`ageMs`), which is the host's at a real service.
 */
export function pollAgeMs(state: StreamState | undefined, ageMs: number | null, hostNowMs: number): number | null {
  const hostMs = state?.last_success_host_ms ?? null;
  return hostMs === null ? ageMs : hostNowMs - hostMs;
}

/**
 * A stream's health at `nowMs` (its age, on the monitor's clock), stale or dead by `pollAgeMs` at `hostNowMs`.
 * `polling` false (offline review: no sync runs, none is expected): its age is only how old the cache is, never stale
 * or dead; a pass that failed before is still said.
 */
export function streamHealth(
  state: StreamState | undefined,
  stream: string,
  nowMs: number,
  intervalMs: number,
  polling = true,
  hostNowMs = nowMs,
): StreamHealth {
  const success = ms(state?.last_success_at ?? null);
  const failed = ms(state?.last_error_at ?? null);
  const ageMs = success === null ? null : nowMs - success;
  const error = state?.last_error ?? null;
  if (failed !== null && (success === null || failed > success)) return { stream, health: 'failing', ageMs, error };
  if (ageMs === null) return { stream, health: 'never', ageMs, error: null };
  const polled = pollAgeMs(state, ageMs, hostNowMs) ?? ageMs;
  const health = !polling ? 'ok' : polled > 5 * intervalMs ? 'dead' : polled > 2 * intervalMs ? 'stale' : 'ok';
  return { stream, health, ageMs, error: null };
}

const DEFAULTS: Readonly<Record<string, number>> = DEFAULT_INTERVALS_MS;

/** Every stream the sync engine runs, in its order, with those the cache knows of beyond them. */
export function allStreamHealth(
  states: readonly StreamState[],
  nowMs: number,
  intervals: Readonly<Record<string, number>>,
  polling = true,
  hostNowMs = nowMs,
): StreamHealth[] {
  const names: string[] = [...POLLED_STREAMS];
  for (const s of states) if (!names.includes(s.stream)) names.push(s.stream);
  return names.map((name) =>
    streamHealth(
      states.find((s) => s.stream === name),
      name,
      nowMs,
      intervals[name] ?? DEFAULTS[name] ?? 300_000,
      polling,
      hostNowMs,
    ),
  );
}
