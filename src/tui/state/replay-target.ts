import type { CacheSpan } from '../../cache/index.js';
import type { City } from '../../contract/cities.js';
import { instantAtLocal, localDate, localDay, parseDateOrInstant } from '../../domain/city-time.js';
import { age, localStamp } from '../format/time.js';

/** Where a replay goes: an instant, and the market day it pins in every city. */
export interface ReplayTarget {
  atMs: number;
  date: string;
}

/** `2026-11-20 09:30` (or a `T` between), or a time alone, `9:30`, on the day the prompt was opened on. */
const LOCAL_TIME = /^(?:(\d{4}-\d{2}-\d{2})[ T]+)?(\d{1,2}):(\d{2})$/;

/** The streams whose passes bring rows every minute: the cache's newest row is at most a pass of theirs old. */
const MINUTE_STREAMS = ['current', 'metar', 'mkta-buckets', 'mktb-buckets'] as const;

/**
 * How old the cache's newest row may be and the cache still reach "now": two of the shortest interval of the streams
 * that bring rows every minute (a pass's rows are its instant less up to an interval: two is stale, as the status
 * bar counts it). `intervals`: the configured poll intervals (ms) by stream.
 */
export function spanFreshMs(intervals: Readonly<Record<string, number>>): number {
  const each = MINUTE_STREAMS.map((s) => intervals[s]).filter((ms): ms is number => typeof ms === 'number' && ms > 0);
  return 2 * (each.length ? Math.min(...each) : 60_000);
}

/** The streams' newest pass of those that bring rows every minute: on the service's clock and on this machine's. */
export interface SyncedTo {
  atMs: number;
  hostMs: number | null;
}

/** The newest good pass of the minute streams (stream_state's `last_success_at` / `last_success_host_ms`); null: none. */
export function syncedTo(
  states: readonly { stream: string; last_success_at: string | null; last_success_host_ms: number | null }[],
): SyncedTo | null {
  let out: SyncedTo | null = null;
  for (const s of states) {
    const atMs = s.last_success_at === null ? Number.NaN : Date.parse(s.last_success_at);
    if (!(MINUTE_STREAMS as readonly string[]).includes(s.stream) || !Number.isFinite(atMs)) continue;
    if (out === null || atMs > out.atMs) out = { atMs, hostMs: s.last_success_host_ms };
  }
  return out;
}

/**
 * The cache's span in a zone's local time, as the prompt and its refusals write it. The cache holds the market up to
 * the streams' newest pass (`synced`: a sync at 13:54 holds 13:54, though the service's last report was 13:30), or,
 * without one, its newest row. "To now" while that pass is within `freshMs` of now, judged on this machine's clock
 * where the pass kept it (poll intervals are on it; a service at `--speed` runs its own faster), else on the
 * monitor's (`nowMs`); otherwise how long before now the cache ends, so a sync stopped never reads as none.
 */
export function spanText(
  span: CacheSpan | null,
  tz: string,
  nowMs?: number,
  freshMs = 120_000,
  synced: SyncedTo | null = null,
  hostNowMs = Date.now(),
): string {
  if (!span) return 'the cache holds no rows yet';
  const from = `the cache spans ${localStamp(span.firstMs, tz)}`;
  const endMs = Math.max(span.lastMs, synced?.atMs ?? Number.NEGATIVE_INFINITY);
  if (nowMs === undefined) return `${from} to ${localStamp(endMs, tz)} local`;
  const fresh =
    synced !== null && synced.hostMs !== null ? hostNowMs - synced.hostMs <= freshMs : nowMs - endMs <= freshMs;
  if (fresh) return `${from} to now (newest row ${localStamp(span.lastMs, tz)}) local`;
  return `${from} to ${localStamp(endMs, tz)} local, ${age(nowMs - endMs)} before now: nothing synced since`;
}

/**
 * What was typed at the `t` prompt: a local date and time in `tz` (the selected city's zone), or a time alone on
 * `day`. Refused, in words, when it is no such time, before the cache's first row or after now (`nowMs`), as
 * `--at` is (cli/replay-instant.ts; the prompt shows the span beside it); the date typed is the market day pinned.
 */
export function parseReplayTime(
  text: string,
  tz: string,
  day: string,
  span: CacheSpan | null,
  nowMs: number,
): ReplayTarget | { error: string } {
  const form = LOCAL_TIME.exec(text.trim());
  const date = form?.[1] ?? day;
  const hour = Number(form?.[2]);
  const minute = Number(form?.[3]);
  if (!form || parseDateOrInstant(date)?.kind !== 'date' || hour > 23 || minute > 59)
    return { error: `not a local date and time: type e.g. ${day} 09:30, or a time alone` };
  const atMs = instantAtLocal(date, hour, minute, tz);
  if (span === null) return { error: `${spanText(span, tz)}: nothing to show as of a time` };
  if (atMs < span.firstMs) return { error: "that is before the cache's first row" };
  if (atMs > nowMs) return { error: 'that is after now' };
  return { atMs, date };
}

/** The instants a History row may carry (DESIGN 4's time columns), the first found is the row's own. */
const ROW_INSTANTS = ['snapshot_at', 'observed_at', 'fetched_at', 'locked_at'];

/** Time travel to a day without a time of its own starts here, the first hour of the board's record. */
const DAY_START_HOUR = 9;

/**
 * History's Enter on a row of a past day (its city's local day is over at `nowMs`): replay that day, from the row's
 * own instant when it falls in the day (a snapshot, a reading, a lock), else from 09:00 local. Null for a row of no
 * city, no date, or a day not over yet.
 */
export function replayTargetOfRow(
  row: Record<string, unknown>,
  cities: readonly City[],
  nowMs: number,
): (ReplayTarget & { cityId: string }) | null {
  const city = cities.find((c) => c.city_id === row.city_id);
  const date = typeof row.local_date === 'string' ? row.local_date : null;
  if (!city || date === null || parseDateOrInstant(date)?.kind !== 'date') return null;
  if (date >= localDate(nowMs, city.tz)) return null;
  const day = localDay(date, city.tz);
  const own = ROW_INSTANTS.map((k) => row[k])
    .map((v) => (typeof v === 'string' ? parseDateOrInstant(v) : null))
    .find((t) => t?.kind === 'instant');
  const atMs =
    own && own.ms >= day.startMs && own.ms < day.endMs ? own.ms : instantAtLocal(date, DAY_START_HOUR, 0, city.tz);
  return { atMs, date, cityId: city.city_id };
}
