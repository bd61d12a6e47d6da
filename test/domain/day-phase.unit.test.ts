import { describe, expect, it } from 'vitest';
import { dayPhase } from '../../src/domain/day-phase.js';

// 2026-11-24 in New York is EST, UTC-5: 09:59 local = 14:59Z
const at = (utc: string) => Date.parse(`2026-11-24T${utc}Z`);
const NY = 'America/New_York';

describe('phase of a city day', () => {
  it('is early before 10:00 local', () => {
    expect(dayPhase(at('14:59:00'), NY, null)).toBe('early');
    expect(dayPhase(at('05:00:00'), NY, { peakHour: 15, resolved: false })).toBe('early');
  });

  it('is peak from 10:00 until the lock peak hour + 2 h, then passed until midnight', () => {
    // 10:00 local
    expect(dayPhase(at('15:00:00'), NY, { peakHour: 15, resolved: false })).toBe('peak');
    // 16:59 local, peak 15 + 2 = 17
    expect(dayPhase(at('21:59:00'), NY, { peakHour: 15, resolved: false })).toBe('peak');
    // 17:00 local
    expect(dayPhase(at('22:00:00'), NY, { peakHour: 15, resolved: false })).toBe('passed');
    // 23:59 local
    expect(dayPhase(Date.parse('2026-11-25T04:59:00Z'), NY, { peakHour: 15, resolved: false })).toBe('passed');
  });

  it('is peak from 10:00 on while the day has no lock yet (the lock comes at the peak hour)', () => {
    expect(dayPhase(at('22:00:00'), NY, null)).toBe('peak');
  });

  it('is settled once the day lock resolved, whatever the hour', () => {
    expect(dayPhase(at('14:00:00'), NY, { peakHour: 15, resolved: true })).toBe('settled');
    expect(dayPhase(at('23:00:00'), NY, { peakHour: 15, resolved: true })).toBe('settled');
  });

  it('reads the hour in the city zone (Paris, UTC+1 in November)', () => {
    expect(dayPhase(at('08:59:00'), 'Europe/Paris', null)).toBe('early');
    expect(dayPhase(at('09:00:00'), 'Europe/Paris', null)).toBe('peak');
  });
});
