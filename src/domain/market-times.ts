import type { FusionLock } from '../contract/fusion-locks.js';
import type { StrategyRecord } from '../contract/strategies.js';
import { addDays, instantAtLocal } from './city-time.js';

/**
 * When the rows that carry no instant of their own happen, from the market's rules: a strategy record is entered at
 * its family's hour (spec 2.5: no24 and yescore one minute after the local midnight that starts their market day,
 * svc-max-picks at its `entry_hour`), and a market day settles at the local midnight that ends it (the day's METAR
 * high is known only then; DESIGN 4: "a past day's phase is settled once T is past its local midnight and its lock
 * resolved"). The cache keeps a record or a lock as its newest version only, so the board as of an instant (DESIGN 4)
 * reads a row settled now as open at any instant before its day's end. The Signals feed dates its rows by the same
 * rules.
 */

/**
 * instantAtLocal of a (date, hour, minute, zone), kept: a scan meets the same few thousand again and again (a city's
 * records of a day share one), and each costs two zone-offset look-ups.
 */
const instants = new Map<string, number>();
export function localInstant(date: string, hour: number, minute: number, tz: string): number {
  const key = `${date}|${hour}|${minute}|${tz}`;
  let at = instants.get(key);
  if (at === undefined) {
    if (instants.size >= 50_000) instants.clear();
    at = instantAtLocal(date, hour, minute, tz);
    instants.set(key, at);
  }
  return at;
}

/** The instant a market day settles: the local midnight after it. */
export const marketSettlesAt = (localDate: string, tz: string): number => localInstant(addDays(localDate, 1), 0, 0, tz);

/** The entry instant a family's rule gives: 00:01 local (no24, yescore, `entryHour` null) or the entry hour. */
export const recordEntersAt = (localDate: string, entryHour: number | null, tz: string): number =>
  entryHour === null ? localInstant(localDate, 0, 1, tz) : localInstant(localDate, entryHour, 0, tz);

/** A record's entry hour: svc-max-picks carry theirs, the other families enter at 00:01. */
export const entryHourOf = (record: StrategyRecord): number | null =>
  record.strategy === 'svc_max_11' && typeof record.entry_hour === 'number' ? record.entry_hour : null;

/**
 * A strategy record as it stood at `atMs`: undefined before its entry; open (no outcome, no roi, and none of the
 * settled market's 1-or-0 marks) before its day settled; as stored after.
 */
export function recordAsOf(record: StrategyRecord, tz: string, atMs: number): StrategyRecord | undefined {
  if (recordEntersAt(record.local_date, entryHourOf(record), tz) > atMs) return undefined;
  if (record.outcome == null || atMs >= marketSettlesAt(record.local_date, tz)) return record;
  // the service marks a settled record at 1 or 0: not a price anyone saw before the settlement (null: unmarked)
  const unmarked =
    record.strategy === 'no24'
      ? { current_no_price: null }
      : record.strategy === 'yescore'
        ? { current_yes_price: null }
        : {};
  return { ...record, outcome: null, roi: null, ...unmarked } as unknown as StrategyRecord;
}

/**
 * A fusion lock as it stood at `atMs`: undefined before it was locked; unresolved (no actual high, hit, payout or
 * P&L) before its day settled (`settlesAtMs`, the local midnight after its day); as stored after.
 */
export function lockAsOf(lock: FusionLock, settlesAtMs: number, atMs: number): FusionLock | undefined {
  const locked = Date.parse(lock.locked_at);
  if (Number.isFinite(locked) && locked > atMs) return undefined;
  if (lock.resolved !== true || atMs >= settlesAtMs) return lock;
  return {
    ...lock,
    resolved: false,
    actual_tmax_f: null,
    actual_tmax_c: null,
    hit: null,
    payout_usd: null,
    pnl_usd: null,
  };
}
