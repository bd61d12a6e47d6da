import { describe, expect, it } from 'vitest';
import type { FusionLock } from '../../src/contract/fusion-locks.js';
import type { StrategyRecord } from '../../src/contract/strategies.js';
import { dayPhase } from '../../src/domain/day-phase.js';
import { lockAsOf, marketSettlesAt, recordAsOf, recordEntersAt } from '../../src/domain/market-times.js';

const NY = 'America/New_York';
const PARIS = 'Europe/Paris';
const ms = (iso: string) => Date.parse(iso);

describe('when records enter and markets settle', () => {
  it('no24 and yescore enter at 00:01 local, svc-max-picks at their hour; a day settles at the local midnight after', () => {
    // New York is UTC-5 in November, Paris UTC+1
    expect(recordEntersAt('2026-11-24', null, NY)).toBe(ms('2026-11-24T05:01:00Z'));
    expect(recordEntersAt('2026-11-24', 11, NY)).toBe(ms('2026-11-24T16:00:00Z'));
    expect(recordEntersAt('2026-11-24', null, PARIS)).toBe(ms('2026-11-23T23:01:00Z'));
    expect(marketSettlesAt('2026-11-24', NY)).toBe(ms('2026-11-25T05:00:00Z'));
    expect(marketSettlesAt('2026-11-24', PARIS)).toBe(ms('2026-11-24T23:00:00Z'));
  });

  it('a record settled now reads open before its day ends, without its outcome or its settled mark', () => {
    const record = {
      id: 1,
      city_id: 'paris',
      local_date: '2026-11-24',
      strategy: 'no24',
      side: 'NO',
      outcome: 'win',
      roi: 0.25,
      current_no_price: 1,
    } as unknown as StrategyRecord;
    expect(recordAsOf(record, PARIS, ms('2026-11-23T23:00:59Z'))).toBeUndefined();
    expect(recordAsOf(record, PARIS, ms('2026-11-23T23:01:00Z'))).toEqual({
      ...record,
      outcome: null,
      roi: null,
      current_no_price: null,
    });
    expect(recordAsOf(record, PARIS, ms('2026-11-24T22:59:59Z'))?.outcome).toBeNull();
    expect(recordAsOf(record, PARIS, ms('2026-11-24T23:00:00Z'))).toBe(record);
  });

  it('a lock exists from its lock time and resolves at its day’s end', () => {
    const lock = {
      id: 'l',
      locked_at: '2026-11-24T14:00:00Z',
      resolved: true,
      actual_tmax_c: 12,
      actual_tmax_f: 53.6,
      hit: false,
      payout_usd: 0,
      pnl_usd: -5,
    } as FusionLock;
    const end = ms('2026-11-24T23:00:00Z');
    expect(lockAsOf(lock, end, ms('2026-11-24T13:59:59Z'))).toBeUndefined();
    expect(lockAsOf(lock, end, ms('2026-11-24T14:00:00Z'))).toEqual({
      ...lock,
      resolved: false,
      actual_tmax_c: null,
      actual_tmax_f: null,
      hit: null,
      payout_usd: null,
      pnl_usd: null,
    });
    expect(lockAsOf(lock, end, end)).toBe(lock);
  });
});

describe('the phase of a chosen day at any instant', () => {
  // 2026-11-24 in New York: 05:00Z to 05:00Z the next day
  const day = { startMs: ms('2026-11-24T05:00:00Z'), endMs: ms('2026-11-25T05:00:00Z') };
  it('is early before the day, passed after its midnight until the lock resolved, then settled', () => {
    expect(dayPhase(ms('2026-11-24T04:00:00Z'), NY, null, day)).toBe('early');
    expect(dayPhase(ms('2026-11-24T15:00:00Z'), NY, null, day)).toBe('peak');
    // 01:00 local the next day: by the clock alone that would be early
    expect(dayPhase(ms('2026-11-25T06:00:00Z'), NY, { peakHour: 15, resolved: false }, day)).toBe('passed');
    expect(dayPhase(ms('2026-11-25T06:00:00Z'), NY, { peakHour: 15, resolved: true }, day)).toBe('settled');
  });
});
