import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parsePosixTz, parseTzif, readZoneRules } from '../../src/domain/zone-file.js';

const H = 3_600_000;
const at = (iso: string) => Date.parse(iso);
const hoursAt = (rule: { offsetS(s: number): number } | undefined, iso: string) =>
  (rule?.offsetS(at(iso) / 1000) ?? Number.NaN) / 3600;

/**
 * A TZDIR of this test's own, kept beside it (the unit tier writes no file): Test/Two holds V2 below, byte for byte,
 * and Broken the text 'TZif but nothing else'.
 */
const dir = fileURLToPath(new URL('./fixtures/tzdir/', import.meta.url));

/** A TZif header: magic, version, 15 bytes unused, the six counts. */
function header(version: string, c: { time: number; type: number; char: number }): Buffer {
  const b = Buffer.alloc(44);
  b.write('TZif', 0, 'latin1');
  b.write(version, 4, 'latin1');
  b.writeUInt32BE(c.time, 32);
  b.writeUInt32BE(c.type, 36);
  b.writeUInt32BE(c.char, 40);
  return b;
}
/** A local time type: its offset east of UTC in seconds, isdst, the index of its name. */
function type(utoff: number, isdst: number, name: number): Buffer {
  const b = Buffer.alloc(6);
  b.writeInt32BE(utoff, 0);
  b[4] = isdst;
  b[5] = name;
  return b;
}
const int64 = (n: number) => {
  const b = Buffer.alloc(8);
  b.writeBigInt64BE(BigInt(n));
  return b;
};
const int32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeInt32BE(n);
  return b;
};

/**
 * Version 2: a 32-bit block of one type (ignored), then the 64-bit block: +1 h before 1,000,000,000 s, +2 h from
 * it, +1 h again from 2,000,000,000 s, which is the last transition: after it the footer's rule, a fixed +3 h.
 */
const V2 = Buffer.concat([
  header('2', { time: 0, type: 1, char: 4 }),
  type(0, 0, 0),
  Buffer.from('UTC\0', 'latin1'),
  header('2', { time: 2, type: 2, char: 8 }),
  int64(1_000_000_000),
  int64(2_000_000_000),
  Buffer.from([1, 0]),
  type(3600, 0, 0),
  type(7200, 1, 4),
  Buffer.from('AAA\0BBB\0', 'latin1'),
  Buffer.from('\n<+03>-3\n', 'latin1'),
]);
/** Version 1 (no 64-bit block, no footer): -5 h, then -4 h from 1,000,000,000 s on, for ever. */
const V1 = Buffer.concat([
  header('\0', { time: 1, type: 2, char: 8 }),
  int32(1_000_000_000),
  Buffer.from([1]),
  type(-18_000, 0, 0),
  type(-14_400, 1, 4),
  Buffer.from('EST\0EDT\0', 'latin1'),
]);

describe('a TZif file (parseTzif, RFC 8536)', () => {
  it('version 2: the first type before the first transition, each transition from its second, the footer after', () => {
    const zone = parseTzif(V2);
    expect(zone?.offsetMs(0)).toBe(1 * H);
    expect(zone?.offsetMs(999_999_999_999)).toBe(1 * H);
    expect(zone?.offsetMs(1_000_000_000_000)).toBe(2 * H);
    expect(zone?.offsetMs(1_999_999_999_999)).toBe(2 * H);
    expect(zone?.offsetMs(2_000_000_000_000)).toBe(3 * H);
    expect(zone?.offsetMs(4_000_000_000_000)).toBe(3 * H);
  });

  it('version 1: its 32-bit transitions, and the last one holds for ever without a footer', () => {
    const zone = parseTzif(V1);
    expect(zone?.offsetMs(-1_000_000_000_000)).toBe(-5 * H);
    expect(zone?.offsetMs(1_000_000_000_000)).toBe(-4 * H);
    expect(zone?.offsetMs(4_000_000_000_000)).toBe(-4 * H);
  });

  it('refuses what is not TZif or is cut short', () => {
    expect(parseTzif(Buffer.from('not a zone file at all, though long enough to have a header'))).toBeUndefined();
    expect(parseTzif(V2.subarray(0, 60))).toBeUndefined();
    expect(parseTzif(V2.subarray(0, V2.length - 30))).toBeUndefined();
    expect(parseTzif(Buffer.alloc(0))).toBeUndefined();
    // version 1 with its transition pointing at a third type of two
    const badType = Buffer.from(V1);
    badType[44 + 4] = 2;
    expect(parseTzif(badType)).toBeUndefined();
  });
});

describe('a POSIX TZ rule (the footer, for instants after the last transition)', () => {
  it("New York's: daylight time from the second Sunday of March at 02:00 to the first of November at 02:00", () => {
    const ny = parsePosixTz('EST5EDT,M3.2.0,M11.1.0');
    // 2040: March 1st is a Thursday, so the second Sunday is the 11th, 02:00 EST = 07:00Z; November 1st is a
    // Thursday, the first Sunday the 4th, 02:00 EDT = 06:00Z
    expect(hoursAt(ny, '2040-03-11T06:59:59Z')).toBe(-5);
    expect(hoursAt(ny, '2040-03-11T07:00:00Z')).toBe(-4);
    expect(hoursAt(ny, '2040-11-04T05:59:59Z')).toBe(-4);
    expect(hoursAt(ny, '2040-11-04T06:00:00Z')).toBe(-5);
    expect(hoursAt(ny, '2040-01-01T00:00:00Z')).toBe(-5);
  });

  it("Sydney's, over the new year: daylight from October's first Sunday to April's, the end at 03:00 daylight time", () => {
    const sydney = parsePosixTz('AEST-10AEDT,M10.1.0,M4.1.0/3');
    // 2040: April 1st is a Sunday, 03:00 AEDT = 16:00Z the day before; October 1st a Monday, the first Sunday the
    // 7th, 02:00 AEST = 16:00Z on the 6th
    expect(hoursAt(sydney, '2040-01-15T00:00:00Z')).toBe(11);
    expect(hoursAt(sydney, '2040-03-31T15:59:59Z')).toBe(11);
    expect(hoursAt(sydney, '2040-03-31T16:00:00Z')).toBe(10);
    expect(hoursAt(sydney, '2040-10-06T15:59:59Z')).toBe(10);
    expect(hoursAt(sydney, '2040-10-06T16:00:00Z')).toBe(11);
    expect(hoursAt(sydney, '2040-12-31T23:00:00Z')).toBe(11);
  });

  it("names in angle brackets, minutes in offsets, Dublin's daylight time in winter, and a fixed zone", () => {
    // Lord Howe: +10:30, and +11 (not an hour more) in its summer
    const lordHowe = parsePosixTz('<+1030>-10:30<+11>-11,M10.1.0,M4.1.0');
    expect(hoursAt(lordHowe, '2040-01-15T00:00:00Z')).toBe(11);
    expect(hoursAt(lordHowe, '2040-07-15T00:00:00Z')).toBe(10.5);
    // Dublin: standard time (IST, +1) in summer, its "daylight" time GMT in winter; 2026's last Sundays are March
    // 29th (01:00 GMT = 01:00Z) and October 25th (02:00 IST = 01:00Z)
    const dublin = parsePosixTz('IST-1GMT0,M10.5.0,M3.5.0/1');
    expect(hoursAt(dublin, '2026-03-29T00:59:59Z')).toBe(0);
    expect(hoursAt(dublin, '2026-03-29T01:00:00Z')).toBe(1);
    expect(hoursAt(dublin, '2026-10-25T00:59:59Z')).toBe(1);
    expect(hoursAt(dublin, '2026-10-25T01:00:00Z')).toBe(0);
    expect(hoursAt(parsePosixTz('<+0530>-5:30'), '2040-07-01T00:00:00Z')).toBe(5.5);
  });

  it('Julian days: Jn never counts February 29th, n (from 0) does', () => {
    // J60 is March 1st in every year; 59 from 0 is February 29th in 2040, a leap year, and March 1st in 2041.
    // The change at 02:00 of UTC-3 is 05:00Z
    const julian = parsePosixTz('<-03>3<-02>,J60,J300');
    expect(hoursAt(julian, '2040-03-01T04:59:59Z')).toBe(-3);
    expect(hoursAt(julian, '2040-03-01T05:00:00Z')).toBe(-2);
    const fromZero = parsePosixTz('<-03>3<-02>,59,300');
    expect(hoursAt(fromZero, '2040-02-29T05:00:00Z')).toBe(-2);
    expect(hoursAt(fromZero, '2041-02-28T05:00:00Z')).toBe(-3);
    expect(hoursAt(fromZero, '2041-03-01T05:00:00Z')).toBe(-2);
  });

  it('refuses a rule it cannot read, rather than guess', () => {
    for (const text of ['', 'EST', '5EDT', 'EST5EDT,M3.2.0', 'EST5EDT,M3.2.0,M11.1.0,', 'EST5EDT,X3,M11.1.0'])
      expect(parsePosixTz(text), text).toBeUndefined();
  });
});

describe("the host's tz database (readZoneRules)", () => {
  it("reads a zone's file, the clock change where it happens: New York on 2026-03-08 at 07:00Z", () => {
    const ny = readZoneRules('America/New_York');
    expect(ny?.offsetMs(at('2026-03-08T06:59:59Z'))).toBe(-5 * H);
    expect(ny?.offsetMs(at('2026-03-08T07:00:00Z'))).toBe(-4 * H);
    expect(readZoneRules('Asia/Kolkata')?.offsetMs(at('2026-11-21T12:00:00Z'))).toBe(5.5 * H);
  });

  it('from TZDIR when given, and nothing for a name that is no zone or would leave the dir', () => {
    expect(readFileSync(join(dir, 'Test', 'Two')).equals(V2)).toBe(true);
    expect(readFileSync(join(dir, 'Broken'), 'latin1')).toBe('TZif but nothing else');
    expect(readZoneRules('Test/Two', dir)?.offsetMs(1_000_000_000_000)).toBe(2 * H);
    expect(readZoneRules('Broken', dir)).toBeUndefined();
    expect(readZoneRules('Test/Missing', dir)).toBeUndefined();
    for (const name of ['../Test/Two', 'Test/../Test/Two', '/etc/passwd', 'Test//Two', '', 'Test/Two ', '.'])
      expect(readZoneRules(name, dir), name).toBeUndefined();
  });
});
