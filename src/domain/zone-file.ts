import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * A time zone's UTC offsets from the host's own tz database: the TZif files libc reads (/usr/share/zoneinfo, or
 * TZDIR), RFC 8536. Why not Intl (luxon): the first Intl formatter a process builds pulls about 7 MB of ICU's code
 * and data into its memory, more than the rest of the monitor's zone work costs in all (docs/benchmarks.md, issue
 * 34); a zone file is a few kilobytes, read once. city-time.ts falls back to luxon where the host has no such file.
 */
export interface ZoneRules {
  /** The zone's offset from UTC at an instant (ms; east positive: Madrid in winter 3,600,000). */
  offsetMs(ms: number): number;
}

const HOUR_S = 3600;
const DAY_MS = 86_400_000;

/** A zone name as the tz database writes them: no `..`, no leading slash, so it can only name a file in the dir. */
const ZONE_NAME = /^[A-Za-z0-9_+-]+(?:\/[A-Za-z0-9_+-]+)*$/;

/** The zone's rules from `<dir>/<name>`; undefined when the name is not a zone's or the file is missing or not TZif. */
export function readZoneRules(name: string, dir = process.env.TZDIR || '/usr/share/zoneinfo'): ZoneRules | undefined {
  if (!ZONE_NAME.test(name)) return undefined;
  let bytes: Buffer;
  try {
    bytes = readFileSync(join(dir, name));
  } catch {
    return undefined;
  }
  return parseTzif(bytes);
}

/**
 * A TZif file's transitions (version 2 and later: its 64-bit block) and its footer, the POSIX TZ rule for instants
 * after the last transition: a "fat" file, as Debian's, lists the transitions to 2037, a "slim" one (`zic -b slim`,
 * as some systems ship) ends them early and leaves the rest to the rule.
 */
export function parseTzif(bytes: Buffer): ZoneRules | undefined {
  if (bytes.length < 44 || bytes.toString('latin1', 0, 4) !== 'TZif') return undefined;
  const version = bytes[4] ?? 0;
  const counts = (at: number) => ({
    isut: bytes.readUInt32BE(at + 20),
    isstd: bytes.readUInt32BE(at + 24),
    leap: bytes.readUInt32BE(at + 28),
    time: bytes.readUInt32BE(at + 32),
    type: bytes.readUInt32BE(at + 36),
    char: bytes.readUInt32BE(at + 40),
  });
  const blockLength = (c: ReturnType<typeof counts>, timeSize: number) =>
    c.time * timeSize + c.time + c.type * 6 + c.char + c.leap * (timeSize + 4) + c.isstd + c.isut;
  let header = 0;
  let timeSize = 4;
  if (version >= 0x32) {
    // version 2+: skip the 32-bit block to the second header and its 64-bit times
    header = 44 + blockLength(counts(0), 4);
    timeSize = 8;
    if (bytes.length < header + 44 || bytes.toString('latin1', header, header + 4) !== 'TZif') return undefined;
  }
  const c = counts(header);
  const data = header + 44;
  const end = data + blockLength(c, timeSize);
  if (c.type === 0 || bytes.length < end) return undefined;
  const times: number[] = [];
  for (let i = 0; i < c.time; i++)
    times.push(timeSize === 8 ? Number(bytes.readBigInt64BE(data + i * 8)) : bytes.readInt32BE(data + i * 4));
  const indices = data + c.time * timeSize;
  const typesAt = indices + c.time;
  const utoff = (type: number) => bytes.readInt32BE(typesAt + type * 6);
  const typeOf = times.map((_, i) => bytes[indices + i] ?? 0);
  // a transition to a type the file does not have: damaged, not read (rather than an offset from the wrong bytes)
  if (typeOf.some((type) => type >= c.type)) return undefined;
  const offsets = typeOf.map(utoff);
  // RFC 8536 3.2: before the first transition, the first time type
  const before = utoff(0);
  let footer: PosixRule | undefined;
  if (timeSize === 8 && bytes[end] === 0x0a) {
    const close = bytes.indexOf(0x0a, end + 1);
    if (close > end + 1) footer = parsePosixTz(bytes.toString('latin1', end + 1, close));
  }
  return {
    offsetMs(ms) {
      const s = Math.floor(ms / 1000);
      const last = times.length - 1;
      if (footer && (last < 0 || s >= (times[last] ?? 0))) return footer.offsetS(s) * 1000;
      if (last < 0 || s < (times[0] ?? 0)) return before * 1000;
      // the last transition at or before s
      let lo = 0;
      let hi = last;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if ((times[mid] ?? 0) <= s) lo = mid;
        else hi = mid - 1;
      }
      return (offsets[lo] ?? before) * 1000;
    },
  };
}

/** A POSIX TZ rule (`EST5EDT,M3.2.0,M11.1.0`): its offsets east of UTC in seconds, and when daylight time runs. */
interface PosixRule {
  offsetS(s: number): number;
}

/** When in a year a change happens: `Mm.w.d` (the w-th day d of month m, 5 the last), `Jn` (1-365, no Feb 29) or `n`. */
type Day = { kind: 'M'; month: number; week: number; weekday: number } | { kind: 'J' | 'n'; day: number };

const NAME = /^(?:<[^>]+>|[A-Za-z]{3,})/;
const OFFSET = /^[+-]?\d{1,3}(?::\d{1,2}){0,2}/;

/** `[+-]hh[:mm[:ss]]` in seconds, as written: POSIX offsets are west positive (their east is `0 - seconds`, never -0). */
function seconds(text: string): number {
  const sign = text.startsWith('-') ? -1 : 1;
  const [h = 0, m = 0, s = 0] = text.replace(/^[+-]/, '').split(':').map(Number);
  return sign * (h * HOUR_S + m * 60 + s);
}

/** The rule, or undefined when it cannot be read (the zone then keeps its last transition's offset). */
export function parsePosixTz(text: string): PosixRule | undefined {
  let rest = text;
  const take = (pattern: RegExp): string | undefined => {
    const m = pattern.exec(rest);
    if (!m) return undefined;
    rest = rest.slice(m[0].length);
    return m[0];
  };
  if (!take(NAME)) return undefined;
  const std = take(OFFSET);
  if (std === undefined) return undefined;
  const stdOffset = 0 - seconds(std);
  if (rest === '') return { offsetS: () => stdOffset };
  if (!take(NAME)) return undefined;
  const dstText = take(OFFSET);
  const dstOffset = dstText === undefined ? stdOffset + HOUR_S : 0 - seconds(dstText);
  const change = () => {
    const m = /^,(?:M(\d{1,2})\.(\d)\.(\d)|J(\d{1,3})|(\d{1,3}))(?:\/([+-]?\d{1,3}(?::\d{1,2}){0,2}))?/.exec(rest);
    if (!m) return undefined;
    rest = rest.slice(m[0].length);
    const day: Day =
      m[1] !== undefined
        ? { kind: 'M', month: Number(m[1]), week: Number(m[2]), weekday: Number(m[3]) }
        : { kind: m[4] !== undefined ? 'J' : 'n', day: Number(m[4] ?? m[5]) };
    return { day, time: m[6] === undefined ? 2 * HOUR_S : seconds(m[6]) };
  };
  const start = change();
  const end = change();
  if (!start || !end || rest !== '') return undefined;
  return {
    offsetS(s) {
      // the year as the zone's standard time counts it; both changes in local time, the start in standard time,
      // the end in daylight time
      const year = new Date((s + stdOffset) * 1000).getUTCFullYear();
      const from = dayStartS(year, start.day) + start.time - stdOffset;
      const until = dayStartS(year, end.day) + end.time - dstOffset;
      const daylight = from < until ? s >= from && s < until : s >= from || s < until;
      return daylight ? dstOffset : stdOffset;
    },
  };
}

/** The UTC midnight (s) of a rule's day in a year: midnight of the local date, as the rule's time is added to it. */
function dayStartS(year: number, day: Day): number {
  const jan1 = Date.UTC(year, 0, 1);
  if (day.kind !== 'M') {
    if (day.kind === 'n') return (jan1 + day.day * DAY_MS) / 1000;
    // 1 is January 1st, 365 December 31st; February 29th is never counted
    const leap = new Date(Date.UTC(year, 1, 29)).getUTCDate() === 29;
    return (jan1 + (day.day - 1 + (leap && day.day > 59 ? 1 : 0)) * DAY_MS) / 1000;
  }
  const first = Date.UTC(year, day.month - 1, 1);
  const firstWeekday = new Date(first).getUTCDay();
  let date = 1 + ((day.weekday - firstWeekday + 7) % 7) + (day.week - 1) * 7;
  const length = new Date(Date.UTC(year, day.month, 0)).getUTCDate();
  while (date > length) date -= 7;
  return (first + (date - 1) * DAY_MS) / 1000;
}
