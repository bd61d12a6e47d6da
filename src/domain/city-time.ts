import { createRequire } from 'node:module';
import { HalfHourSlots } from './half-hour-slots.js';
import { readZoneRules, type ZoneRules } from './zone-file.js';

type Luxon = typeof import('luxon');
let luxon: Luxon | undefined;
/**
 * luxon, only where the host has no tz database (zone-file.ts): its zones are Intl's, and the first Intl formatter
 * of a process costs about 7 MB of ICU. Loaded at the first zone asked about then. Synchronous, as its callers are.
 */
function lx(): Luxon {
  luxon ??= createRequire(import.meta.url)('luxon') as Luxon;
  return luxon;
}

/**
 * What each zone name is: its rules from the host's tz database, a zone only luxon knows (Intl's, without a tz
 * database), or no zone. Asked once a name, so checking a webhook's zone or a city's is a lookup. At most ZONES_KEPT
 * names, the unknown ones a service might send included (the tz database has about 600), then they start over.
 */
type KnownZone = ZoneRules | 'intl' | 'unknown';
const zones = new Map<string, KnownZone>();
const ZONES_KEPT = 1000;
function zoneOf(tz: string): KnownZone {
  let zone = zones.get(tz);
  if (zone === undefined) {
    zone = readZoneRules(tz) ?? (lx().DateTime.local().setZone(tz).isValid ? 'intl' : 'unknown');
    // past the bound the names start over: the real zones in use are read again once each
    if (zones.size >= ZONES_KEPT) zones.clear();
    zones.set(tz, zone);
  }
  return zone;
}

/** How many zone names are kept (their bound's test). */
export const zoneNamesKept = (): number => zones.size;

/** Instants are epoch milliseconds; the API writes them as whole-second UTC strings, fixed width so they sort. */
export function isoUtc(ms: number): string {
  return `${new Date(Math.floor(ms / 1000) * 1000).toISOString().slice(0, 19)}Z`;
}

/** The same instant written with an explicit UTC offset, as edge events carry it. */
export function isoWithOffset(ms: number): string {
  return `${isoUtc(ms).slice(0, 19)}+00:00`;
}

const HOUR = 3_600_000;
/** Each zone's offsets by half hour, in an array a UTC day (half-hour-slots.ts). */
const offsets = new Map<string, HalfHourSlots>();
/** The days kept a zone (about eleven years) before its offsets start over. */
const DAYS_KEPT = 4_200;

/**
 * The zone's UTC offset (ms) at an instant, from the host's tz database (or luxon's, without one). Offsets of real
 * zones change only on the hour or half hour, so one lookup serves each half hour; the simulator asks millions of
 * times, the zone's rules once per slot.
 * Kept in arrays a day rather than a map's entry a slot: a 30-day demo's world asks for 180 days of 13 zones, and
 * as map entries they were 4 MB of its heap.
 */
export function zoneOffsetMs(tz: string, ms: number): number {
  let zone = offsets.get(tz);
  if (!zone || zone.dayCount > DAYS_KEPT) {
    zone = new HalfHourSlots(true);
    offsets.set(tz, zone);
  }
  const slot = Math.floor(ms / (HOUR / 2));
  return zone.value(slot, () => {
    const at = slot * (HOUR / 2);
    const zone = zoneOf(tz);
    // a zone luxon does not know gives NaN: every local time of it invalid, as before there was a tz database
    return typeof zone === 'object' ? zone.offsetMs(at) : lx().DateTime.fromMillis(at, { zone: tz }).offset * 60_000;
  });
}

export function localDate(ms: number, tz: string): string {
  return new Date(ms + zoneOffsetMs(tz, ms)).toISOString().slice(0, 10);
}

/**
 * The first market day that can still be open at an instant, in any city: a market is live until its city's day is
 * over, and yesterday in UTC covers every zone. With a day pinned before it (time travel's chosen day), the day
 * before that one.
 */
export function openSinceDate(atMs: number, pinned?: string): string {
  const utc = new Date(atMs).toISOString().slice(0, 10);
  return addDays(pinned !== undefined && pinned < utc ? pinned : utc, -1);
}

/** Local wall-clock hour as a fraction (13.5 = half past one). */
export function localHour(ms: number, tz: string): number {
  const local = ms + zoneOffsetMs(tz, ms);
  return (((local % 86_400_000) + 86_400_000) % 86_400_000) / HOUR;
}

/** The instant a local wall-clock time happens in a zone (outside DST gaps, which no scheduled job falls in). */
export function instantAtLocal(date: string, hour: number, minute: number, tz: string): number {
  const wall = Date.parse(`${date}T00:00:00Z`) + hour * HOUR + minute * 60_000;
  const guess = wall - zoneOffsetMs(tz, wall);
  return wall - zoneOffsetMs(tz, guess);
}

/** A city's local day: its date, the instant it begins (local midnight) and the instant the next one begins. */
export interface LocalDay {
  date: string;
  startMs: number;
  endMs: number;
}

/** The window `[startMs, endMs)` of a local date in a zone: midnight to the next midnight, 23 to 25 hours. */
export function localDay(date: string, tz: string): LocalDay {
  return { date, startMs: instantAtLocal(date, 0, 0, tz), endMs: instantAtLocal(addDays(date, 1), 0, 0, tz) };
}

export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

export function dayOfYear(date: string): number {
  const ms = Date.parse(`${date}T00:00:00Z`);
  return Math.floor((ms - Date.UTC(new Date(ms).getUTCFullYear(), 0, 1)) / 86_400_000) + 1;
}

/** A name the tz database knows (the host's, or luxon's without one). */
export function isValidZone(tz: string): boolean {
  return zoneOf(tz) !== 'unknown';
}

/**
 * spec 4.4's `since`/`until`: `YYYY-MM-DD`, or an ISO 8601 instant in the extended form the API writes
 * (`YYYY-MM-DDTHH:MM`, seconds and a fraction optional) with `Z` or an offset (`+01:00`, `-0500`). An instant
 * without an offset is UTC, as everything the service writes is and as a date means its UTC day: never the host's
 * zone, so the same text names the same instant on every machine. Anything else (`2026-11`, week or ordinal dates,
 * `20261120`, a date that does not exist) is null.
 */
export function parseDateOrInstant(text: string): { kind: 'date' | 'instant'; ms: number; date: string } | null {
  const form = DATE_OR_INSTANT.exec(text);
  if (!form) return null;
  const [, y, mo, d, time, h = '0', mi = '0', sec = '0', fraction = '', zone] = form;
  const [year, month, day, hour, minute, second] = [y, mo, d, h, mi, sec].map(Number) as number[];
  // setUTCFullYear, not Date.UTC: that one reads years 0 to 99 as 1900 to 1999
  const date = new Date(0).setUTCFullYear(year as number, (month as number) - 1, day);
  // a date that does not exist (February 30th, month 13) comes back as another one
  if (new Date(date).toISOString().slice(0, 10) !== `${y}-${mo}-${d}`) return null;
  if (time === undefined) return { kind: 'date', ms: date, date: `${y}-${mo}-${d}` };
  // 24:00 is the next midnight (ISO 8601, and luxon, which read these before); seconds without leaps
  const midnightNext = hour === 24 && minute === 0 && second === 0 && !/[1-9]/.test(fraction);
  if (((hour as number) > 23 && !midnightNext) || (minute as number) > 59 || (second as number) > 59) return null;
  // the fraction's milliseconds, cut rather than rounded
  const millis = Math.floor(Number(`0.${fraction || '0'}`) * 1000);
  const offset = zone === undefined || zone === 'Z' ? 0 : zoneSeconds(zone) * 1000;
  const ms = date + (hour as number) * HOUR + (minute as number) * 60_000 + (second as number) * 1000 + millis - offset;
  return { kind: 'instant', ms, date: new Date(ms).toISOString().slice(0, 10) };
}

/** `+01:00`, `-0500`: seconds east of UTC. */
function zoneSeconds(zone: string): number {
  const sign = zone.startsWith('-') ? -1 : 1;
  return sign * (Number(zone.slice(1, 3)) * 3600 + Number(zone.slice(-2)) * 60);
}

const DATE_OR_INSTANT =
  /^(\d{4})-(\d{2})-(\d{2})(T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/** `november-21-2026`, the date part of a venue's event slug. */
export function slugDate(date: string): string {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  return `${MONTHS[month - 1]}-${day}-${year}`;
}

const MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];
