import type { Health } from '../../alerts/stream-health.js';
import type { Tone } from '../theme.js';

/** Each stream's name as the status bar writes it: short, so every stream fits on its line. */
export const STREAM_SHORT: Readonly<Record<string, string>> = {
  cities: 'cty',
  current: 'cur',
  forecasts: 'fc',
  no24: 'n24',
  yescore: 'yes',
  'svc-max-picks': 'max',
  'fusion-locks': 'lock',
  'mkta-buckets': 'mka',
  'mktb-buckets': 'mkb',
  metar: 'mtr',
  daily: 'day',
};

/** A stream's health as the status bar marks it after its age (`*` amber, `!` red) and as the Alerts pane words it. */
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
