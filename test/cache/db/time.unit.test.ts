import { describe, expect, it } from 'vitest';
import { CacheError } from '../../../src/cache/db/cache-error.js';
import { instantMs, timeBounds } from '../../../src/cache/db/time.js';

const DAY = 86_400_000;
const NOV_21 = Date.UTC(2026, 10, 21);

describe('instantMs', () => {
  it('reads the instants the API writes, offsets and fractions included', () => {
    expect(instantMs('2026-11-21T00:00:00Z')).toBe(NOV_21);
    expect(instantMs('2026-11-21T02:00:00+02:00')).toBe(NOV_21);
    expect(instantMs('2026-11-21T00:00:00.250Z')).toBe(NOV_21 + 250);
  });

  it('is null for what is absent or not an instant (stored as NULL)', () => {
    expect(instantMs(undefined)).toBeNull();
    expect(instantMs(null)).toBeNull();
    expect(instantMs(1_763_683_200_000)).toBeNull();
    expect(instantMs('yesterday')).toBeNull();
  });
});

describe('timeBounds', () => {
  it('on an instant column, a date is its whole UTC day, both ends inclusive', () => {
    expect(timeBounds('instant', '2026-11-21', '2026-11-21')).toEqual({ since: NOV_21, until: NOV_21 + DAY - 1 });
  });

  it('on an instant column, an instant is itself', () => {
    expect(timeBounds('instant', '2026-11-21T12:00:00Z', '2026-11-21T13:30:00+01:00')).toEqual({
      since: NOV_21 + 12 * 3_600_000,
      until: NOV_21 + 12.5 * 3_600_000,
    });
  });

  it('on a date column, an instant is its UTC date and a date is itself', () => {
    expect(timeBounds('date', '2026-11-21T23:30:00-02:00', '2026-11-22')).toEqual({
      since: '2026-11-22',
      until: '2026-11-22',
    });
  });

  it('leaves out the bounds not given', () => {
    expect(timeBounds('date')).toEqual({ since: undefined, until: undefined });
    expect(timeBounds('instant', undefined, '2026-11-21')).toEqual({ since: undefined, until: NOV_21 + DAY - 1 });
  });

  it('refuses what is neither a date nor an instant, naming the bound and the text', () => {
    expect(() => timeBounds('date', '2026-13-45')).toThrow(CacheError);
    expect(() => timeBounds('instant', undefined, 'soon')).toThrow(
      "invalid until: 'soon' is not YYYY-MM-DD or an ISO 8601 instant of a real day",
    );
  });

  it('refuses since after until, as the service does, where it once answered nothing', () => {
    expect(() => timeBounds('date', '2026-11-22', '2026-11-21')).toThrow(
      'invalid since and until: since (2026-11-22) is after until (2026-11-21)',
    );
    expect(() => timeBounds('instant', '2026-11-21T12:00:01Z', '2026-11-21T12:00:00Z')).toThrow(CacheError);
    // a date until is its whole day: 23:59Z of that day is inside it
    expect(timeBounds('instant', '2026-11-21T23:59:00Z', '2026-11-21')).toEqual({
      since: NOV_21 + DAY - 60_000,
      until: NOV_21 + DAY - 1,
    });
  });
});
