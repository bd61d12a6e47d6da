import { describe, expect, it } from 'vitest';
import { TimeBoundsError, timeBounds } from '../../src/domain/time-bounds.js';

const DAY = 86_400_000;
const NOV_21 = Date.UTC(2026, 10, 21);

/** The bound a refusal names, or 'none'. */
function refused(kind: 'instant' | 'date', since?: string, until?: string): string {
  try {
    timeBounds(kind, since, until);
    return 'none';
  } catch (error) {
    if (!(error instanceof TimeBoundsError)) throw error;
    return `${error.bound}: ${error.message}`;
  }
}

describe('since and until: one rule for the service and the monitor', () => {
  it('on an instant column: a date is its whole UTC day, an instant itself (no offset: UTC)', () => {
    expect(timeBounds('instant', '2026-11-21', '2026-11-21')).toEqual({ since: NOV_21, until: NOV_21 + DAY - 1 });
    // 01:00+01:00 is 00:00Z; 06:00 without an offset is 06:00Z = 21_600_000 ms after midnight
    expect(timeBounds('instant', '2026-11-21T01:00:00+01:00', '2026-11-21T06:00')).toEqual({
      since: NOV_21,
      until: NOV_21 + 21_600_000,
    });
  });

  it('on a date column: an instant is its UTC date', () => {
    // 23:30-02:00 on the 21st is 01:30Z on the 22nd
    expect(timeBounds('date', '2026-11-21T23:30:00-02:00', '2026-11-22')).toEqual({
      since: '2026-11-22',
      until: '2026-11-22',
    });
  });

  it('refuses since after until on either column, and a bad value naming its bound', () => {
    expect(refused('date', '2026-11-22', '2026-11-21')).toBe('both: since (2026-11-22) is after until (2026-11-21)');
    // the same UTC date on a date column, but 12:00:01Z is after 12:00:00Z: nothing is asked for
    expect(refused('date', '2026-11-21T12:00:01Z', '2026-11-21T12:00:00Z')).toMatch(/^both: /);
    expect(refused('instant', '2026-11-21', '2026-11-21T23:59:59.999Z')).toBe('none');
    expect(refused('instant', '2026-11-22', '2026-11-21T23:59:59.999Z')).toMatch(/^both: /);
    expect(refused('instant', '2026-11')).toBe(
      "since: '2026-11' is not YYYY-MM-DD or an ISO 8601 instant of a real day",
    );
    expect(refused('date', undefined, '2026-02-30')).toMatch(/^until: /);
  });
});
