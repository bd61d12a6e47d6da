import { localHour } from './city-time.js';

/** Where a city's market day stands: before the heat, in it, after it, or settled. */
export type DayPhase = 'early' | 'peak' | 'passed' | 'settled';

/** The local hour the heat of the day starts (DESIGN 4). */
const PEAK_STARTS_AT = 10;
/** Hours after the fusion lock's peak hour that the peak still lasts. */
const PEAK_LASTS_AFTER = 2;

/** What the phase of a city's day is worked out from: the day's fusion lock, if the service made one yet. */
export interface DayLock {
  peakHour: number;
  resolved: boolean;
}

/**
 * DESIGN 4 "phase of a city's day": `early` before 10:00 local, `peak` from 10:00 until the fusion lock's peak hour
 * + 2 h, `passed` after that until midnight, `settled` once the day's lock resolved. The service locks at the peak
 * hour, so a day without a lock yet has its peak still to come: from 10:00 on it is `peak`. `day`: the instants the
 * market day spans, when the instant may fall outside it (time travel shows a chosen day at any instant): before it
 * the day is `early`, after its midnight `passed` until the lock resolved.
 */
export function dayPhase(
  nowMs: number,
  tz: string,
  lock: DayLock | null,
  day?: { startMs: number; endMs: number },
): DayPhase {
  if (lock?.resolved) return 'settled';
  if (day && nowMs >= day.endMs) return 'passed';
  if (day && nowMs < day.startMs) return 'early';
  const hour = localHour(nowMs, tz);
  if (hour < PEAK_STARTS_AT) return 'early';
  if (lock === null || hour < lock.peakHour + PEAK_LASTS_AFTER) return 'peak';
  return 'passed';
}
