import type { StreamState } from '../cache/meta.js';
import type { Tone } from '../tui/theme.js';

/** The sync engine's default poll intervals (src/sync/streams.ts), so "stale" means "several polls missed". */
export const DEFAULT_INTERVALS_MS: Readonly<Record<string, number>> = {
  cities: 3_600_000,
  current: 60_000,
  forecasts: 300_000,
  no24: 120_000,
  yescore: 120_000,
  'svc-max-picks': 120_000,
  'fusion-locks': 30_000,
};

export const STREAM_SHORT: Readonly<Record<string, string>> = {
  cities: 'cty',
  current: 'cur',
  forecasts: 'fc',
  no24: 'n24',
  yescore: 'yes',
  'svc-max-picks': 'max',
  'fusion-locks': 'lock',
};

/** ok; stale (`*`, amber): two polls missed; dead (`!`, red): five missed; failing (`!`): the last poll failed. */
export type Health = 'ok' | 'stale' | 'dead' | 'failing' | 'never';

export interface StreamHealth {
  stream: string;
  health: Health;
  /** Since the last good sync; null when there never was one. */
  ageMs: number | null;
  error: string | null;
}

export const HEALTH_MARK: Record<Health, string> = { ok: '', stale: '*', dead: '!', failing: '!', never: '?' };
export const HEALTH_TONE: Record<Health, Tone> = {
  ok: 'good',
  stale: 'warn',
  dead: 'bad',
  failing: 'bad',
  never: 'muted',
};
export const HEALTH_WORD: Record<Health, string> = {
  ok: 'ok',
  stale: 'STALE',
  dead: 'STALE',
  failing: 'FAILING',
  never: 'never synced',
};

const ms = (text: string | null) => (text === null ? null : Date.parse(text));

export function streamHealth(
  state: StreamState | undefined,
  stream: string,
  nowMs: number,
  intervalMs: number,
): StreamHealth {
  const success = ms(state?.last_success_at ?? null);
  const failed = ms(state?.last_error_at ?? null);
  const ageMs = success === null ? null : nowMs - success;
  const error = state?.last_error ?? null;
  if (failed !== null && (success === null || failed > success)) return { stream, health: 'failing', ageMs, error };
  if (ageMs === null) return { stream, health: 'never', ageMs, error: null };
  const health = ageMs > 5 * intervalMs ? 'dead' : ageMs > 2 * intervalMs ? 'stale' : 'ok';
  return { stream, health, ageMs, error: null };
}

/** Every stream the sync engine runs, in its order, with those the cache knows of beyond them. */
export function allStreamHealth(
  states: readonly StreamState[],
  nowMs: number,
  intervals: Readonly<Record<string, number>>,
): StreamHealth[] {
  const names = [...Object.keys(DEFAULT_INTERVALS_MS)];
  for (const s of states) if (!names.includes(s.stream)) names.push(s.stream);
  return names.map((name) =>
    streamHealth(
      states.find((s) => s.stream === name),
      name,
      nowMs,
      intervals[name] ?? DEFAULT_INTERVALS_MS[name] ?? 300_000,
    ),
  );
}
