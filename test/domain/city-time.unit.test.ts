import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import {
  addDays,
  dayOfYear,
  instantAtLocal,
  isoUtc,
  isValidZone,
  localDate,
  localDay,
  localHour,
  openSinceDate,
  parseDateOrInstant,
  slugDate,
  zoneNamesKept,
  zoneOffsetMs,
} from '../../src/domain/city-time.js';

const ZONES = [
  'America/New_York',
  'Europe/London',
  'Europe/Berlin',
  'America/Los_Angeles',
  'Asia/Kolkata',
  'Australia/Lord_Howe',
];

describe('city time', () => {
  it('agrees with luxon on local dates and hours across a year, DST changes included', () => {
    for (const tz of ZONES) {
      for (
        let ms = Date.parse('2026-01-01T00:00:00Z');
        ms < Date.parse('2027-01-01T00:00:00Z');
        ms += 97 * 60_000 + 7_000
      ) {
        const t = DateTime.fromMillis(ms, { zone: tz });
        expect(localDate(ms, tz)).toBe(t.toISODate());
        expect(localHour(ms, tz)).toBeCloseTo(t.hour + t.minute / 60 + t.second / 3600, 9);
      }
    }
  });

  it('finds the instant of a local wall-clock time on every day of a year', () => {
    for (const tz of ZONES) {
      for (let date = '2026-01-01'; date < '2027-01-01'; date = addDays(date, 1)) {
        for (const [hour, minute] of [
          [0, 1],
          [11, 0],
          [15, 0],
        ] as const) {
          const expected = DateTime.fromISO(date, { zone: tz }).set({ hour, minute }).toMillis();
          expect(instantAtLocal(date, hour, minute, tz)).toBe(expected);
        }
        expect(dayOfYear(date)).toBe(DateTime.fromISO(date, { zone: 'UTC' }).ordinal);
      }
    }
  });

  it('a local day runs from its midnight to the next: 23 or 25 hours on the days the clocks change', () => {
    // Berlin, 2026-10-25: midnight is still CEST (+2), 22:00Z the day before; the next is CET (+1), 23:00Z
    expect(localDay('2026-10-25', 'Europe/Berlin')).toEqual({
      date: '2026-10-25',
      startMs: Date.parse('2026-10-24T22:00:00Z'),
      endMs: Date.parse('2026-10-25T23:00:00Z'),
    });
    // 2026-03-29: from CET (23:00Z on the 28th) to CEST (22:00Z on the 29th), 23 hours
    const spring = localDay('2026-03-29', 'Europe/Berlin');
    expect([spring.startMs, spring.endMs]).toEqual([
      Date.parse('2026-03-28T23:00:00Z'),
      Date.parse('2026-03-29T22:00:00Z'),
    ]);
    // New York in winter: 05:00Z to 05:00Z
    expect(localDay('2026-11-21', 'America/New_York')).toMatchObject({
      startMs: Date.parse('2026-11-21T05:00:00Z'),
      endMs: Date.parse('2026-11-22T05:00:00Z'),
    });
  });

  it('writes instants as fixed-width whole-second UTC strings', () => {
    expect(isoUtc(Date.parse('2026-11-21T14:05:09.999Z'))).toBe('2026-11-21T14:05:09Z');
  });

  it('parses dates and instants, and refuses dates that do not exist', () => {
    expect(parseDateOrInstant('2026-11-21')).toMatchObject({ kind: 'date', date: '2026-11-21' });
    expect(parseDateOrInstant('2026-11-21T23:30:00-05:00')).toMatchObject({ kind: 'instant', date: '2026-11-22' });
    expect(parseDateOrInstant('2026-02-30')).toBeNull();
    expect(parseDateOrInstant('2026-13-01T00:00:00Z')).toBeNull();
  });

  it('reads an instant without an offset as UTC, never in the host zone, and takes spec 4.4 forms only', () => {
    // 2026-11-21T00:00Z = 1_795_219_200_000 ms (Date.UTC(2026, 10, 21)); 06:30 is 23_400_000 ms later
    const midnight = Date.UTC(2026, 10, 21);
    expect(parseDateOrInstant('2026-11-21T00:00')).toEqual({ kind: 'instant', ms: midnight, date: '2026-11-21' });
    expect(parseDateOrInstant('2026-11-21T06:30:00.5')?.ms).toBe(midnight + 23_400_500);
    expect(parseDateOrInstant('2026-11-21T06:30+0130')?.ms).toBe(midnight + 18_000_000);
    expect(parseDateOrInstant('2026-11-21')).toEqual({ kind: 'date', ms: midnight, date: '2026-11-21' });
    // 24:00 is the next midnight; a year before 100 is that year (Date.UTC would read 0001 as 1901)
    expect(parseDateOrInstant('2026-11-21T24:00')).toMatchObject({ ms: midnight + 86_400_000, date: '2026-11-22' });
    expect(parseDateOrInstant('0001-01-01')?.date).toBe('0001-01-01');
    for (const text of ['2026-11-21T24:30', '2026-11-21T23:60', '2026-11-21T23:59:60', '2026-02-29T00:00'])
      expect(parseDateOrInstant(text), text).toBeNull();
    for (const text of ['2026-11', '2026', '2026-W47-6', '2026-325', '20261121', '2026-11-21T06', '2026-11-21 06:30'])
      expect(parseDateOrInstant(text), text).toBeNull();
  });
});

describe("a zone's offset (zoneOffsetMs, kept by half hour in arrays a day)", () => {
  it("changes at the zone's clock change, whatever half hours were asked before", () => {
    // London went to BST at 01:00Z on 2026-03-29: asked in the order 01:00, 00:30, 23:59 the night before, 01:29
    expect(zoneOffsetMs('Europe/London', Date.UTC(2026, 2, 29, 1))).toBe(3_600_000);
    expect(zoneOffsetMs('Europe/London', Date.UTC(2026, 2, 29, 0, 30))).toBe(0);
    expect(zoneOffsetMs('Europe/London', Date.UTC(2026, 2, 28, 23, 59))).toBe(0);
    expect(zoneOffsetMs('Europe/London', Date.UTC(2026, 2, 29, 1, 29))).toBe(3_600_000);
    // a zone west of UTC, and one half an hour off, before 1970 as well (a negative day index)
    expect(zoneOffsetMs('America/New_York', Date.UTC(2026, 10, 21, 12))).toBe(-18_000_000);
    expect(zoneOffsetMs('Asia/Kolkata', Date.UTC(2026, 10, 21, 12))).toBe(19_800_000);
    expect(zoneOffsetMs('Asia/Kolkata', Date.UTC(1969, 11, 31, 23, 45))).toBe(19_800_000);
  });

  it('keeps answering right past the days it keeps a zone (it starts over)', () => {
    const DAY = 86_400_000;
    // 4,300 days of New York's noons, more than the 4,200 kept: January is EST, July EDT, every year
    for (let d = 0; d < 4_300; d++) zoneOffsetMs('America/New_York', Date.UTC(2010, 0, 1, 17) + d * DAY);
    expect(zoneOffsetMs('America/New_York', Date.UTC(2010, 0, 15, 17))).toBe(-18_000_000);
    expect(zoneOffsetMs('America/New_York', Date.UTC(2021, 6, 15, 16))).toBe(-14_400_000);
  });
});

describe('the first market day still open (openSinceDate)', () => {
  it('is yesterday in UTC, which covers every zone, or the day before a pinned earlier day', () => {
    // 03:00Z on the 24th: Honolulu (UTC-10) is still on the 23rd, Auckland (UTC+13) already on the 24th's afternoon
    expect(openSinceDate(Date.parse('2026-11-24T03:00:00Z'))).toBe('2026-11-23');
    // time travel pinned to the 20th: its markets and the day before
    expect(openSinceDate(Date.parse('2026-11-24T03:00:00Z'), '2026-11-20')).toBe('2026-11-19');
    // a pinned day later than the UTC date changes nothing
    expect(openSinceDate(Date.parse('2026-11-24T23:00:00Z'), '2026-11-25')).toBe('2026-11-23');
  });
});

describe('a host without a tz database', () => {
  it("falls back to luxon's zones (Intl's): the same offsets, and a name that is no zone still refused", () => {
    const saved = process.env.TZDIR;
    // a folder that does not exist: no zone's file is found in it, as on a host without the database (the unit tier
    // writes no file, so not an empty folder made for it)
    process.env.TZDIR = join(tmpdir(), 'svc-no-tzdata-here', String(process.pid));
    try {
      // Auckland, asked first here (its rules looked up with TZDIR empty): NZDT (+13) in January, NZST (+12) in July
      expect(zoneOffsetMs('Pacific/Auckland', Date.UTC(2026, 0, 15, 12))).toBe(13 * 3_600_000);
      expect(zoneOffsetMs('Pacific/Auckland', Date.UTC(2026, 6, 15, 12))).toBe(12 * 3_600_000);
      expect(isValidZone('Pacific/Chatham')).toBe(true);
      expect(isValidZone('Mars/Olympus_Mons')).toBe(false);
    } finally {
      if (saved === undefined) delete process.env.TZDIR;
      else process.env.TZDIR = saved;
    }
  });
});

describe("a venue's event slug date (slugDate)", () => {
  it('writes the month in full, the day without a zero', () => {
    expect(slugDate('2026-11-21')).toBe('november-21-2026');
    expect(slugDate('2026-01-05')).toBe('january-5-2026');
  });
});

describe("the zones' rules kept", () => {
  it('at most 1,000 names, however many a service sends; past that they start over, and every zone still answers', () => {
    for (let i = 0; i < 1_000; i++) isValidZone(`Nowhere/Place_${i}`);
    expect(zoneNamesKept()).toBeLessThanOrEqual(1_000);
    for (let i = 1_000; i < 1_200; i++) isValidZone(`Nowhere/Place_${i}`);
    expect(zoneNamesKept()).toBeLessThanOrEqual(1_000);
    // 1,200 new names (with whatever other files of this worker asked before): the map has started over since,
    // so it holds fewer than 1,000; a map that stopped adding at its bound, or had none, holds 1,000 or more
    expect(zoneNamesKept()).toBeLessThan(1_000);
    expect(zoneOffsetMs('America/Sao_Paulo', Date.UTC(2026, 6, 1, 12))).toBe(-3 * 3_600_000);
    expect(isValidZone('Nowhere/Place_0')).toBe(false);
  });
});
