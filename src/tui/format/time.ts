import { zoneOffsetMs } from '../../domain/city-time.js';

// a time or zone the cache cannot vouch for (a bad webhook field, an unknown zone) shows as dashes, never throws
const iso = (ms: number) => (Number.isFinite(ms) ? new Date(ms).toISOString() : '----------T--:--:--');
const local = (ms: number, tz: string | null) => {
  const offset = tz ? zoneOffsetMs(tz, ms) : 0;
  return Number.isFinite(offset) ? ms + offset : ms;
};

/** `14:05:09Z` */
export const utcClock = (ms: number): string => `${iso(ms).slice(11, 19)}Z`;

/** `11-21 14:05Z`: month and day, so a feed spanning days stays readable. */
export const utcStamp = (ms: number): string => `${iso(ms).slice(5, 10)} ${iso(ms).slice(11, 16)}Z`;

/** `09:05` in the zone (UTC when the zone is unknown). */
export const localClock = (ms: number, tz: string | null): string => iso(local(ms, tz)).slice(11, 16);

/** `2026-11-20 09:05`: date and time in the zone, as the time travel prompt reads them. */
export const localStamp = (ms: number, tz: string | null): string => iso(local(ms, tz)).slice(0, 16).replace('T', ' ');

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

/** `Sat 09:05`: weekday and time in the zone. */
export function localDayClock(ms: number, tz: string | null): string {
  const at = local(ms, tz);
  // by hand, not toLocaleDateString: Intl would pull ICU's data into the process (7 MB; city-time.ts says why)
  const day = Number.isFinite(at) ? (WEEKDAYS[new Date(at).getUTCDay()] ?? '---') : '---';
  return `${day} ${localClock(ms, tz)}`;
}

/** `UTC-5`, `UTC+1`, `UTC+5:30` */
export function offsetLabel(ms: number, tz: string | null): string {
  const offset = tz ? zoneOffsetMs(tz, ms) : 0;
  const minutes = Number.isFinite(offset) ? Math.round(offset / 60_000) : 0;
  const sign = minutes < 0 ? '-' : '+';
  const h = Math.floor(Math.abs(minutes) / 60);
  const m = Math.abs(minutes) % 60;
  return minutes === 0 ? 'UTC' : `UTC${sign}${h}${m ? `:${String(m).padStart(2, '0')}` : ''}`;
}

/** `42s`, `5m`, `3h`, `2d`: the age of a sync, short enough for the status bar. */
export function age(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m`;
  if (s < 86_400) return `${Math.floor(s / 3600)}h`;
  return `${Math.floor(s / 86_400)}d`;
}
