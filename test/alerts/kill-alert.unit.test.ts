import { describe, expect, it } from 'vitest';
import { INBOX_ALERT_RULES, killAlert, saleText } from '../../src/alerts/kill-alert.js';
import type { StoredKill } from '../../src/cache/index.js';

const kill: StoredKill = {
  pickId: 'pick-1',
  signal: {
    market: { city: 'nyc', market_date: '2026-11-21' },
    // the kill's legs A and B, and leg C of the pick's hedge addon, which loses with them
    legs: [
      { leg: 'A', bucket_label: '64-65°F' },
      { leg: 'B', bucket_label: '66-67°F' },
      { leg: 'C', bucket_label: '62-63°F' },
    ],
    kill: { sell_at_market: true, reason: 'running high 68°F is above both legs' },
  },
  receivedAt: '2026-11-21T15:02:03.000Z',
  alerted: false,
};

describe('the kill alert rule', () => {
  it('raises one high alert about the pick, saying what to sell, when it arrived', () => {
    expect(killAlert(kill)).toEqual({
      severity: 'high',
      kind: 'kill',
      ref: 'pick-1',
      city_id: 'nyc',
      created_at: '2026-11-21T15:02:03.000Z',
      message:
        'KILL nyc 2026-11-21: SELL AT MARKET: legs A 64-65°F, B 66-67°F, C 62-63°F. running high 68°F is above both legs',
    });
  });

  it('says Exit when the kill does not say to sell at market', () => {
    const exit = { ...kill, signal: { ...kill.signal, kill: { sell_at_market: false, reason: 'late' } } };
    expect(killAlert(exit)?.message).toBe('KILL nyc 2026-11-21: Exit: legs A 64-65°F, B 66-67°F, C 62-63°F. late');
  });

  it('raises nothing for a pick that has its kill alert already (a duplicate kill, an addon after it)', () => {
    expect(killAlert({ ...kill, alerted: true })).toBeUndefined();
  });

  it('is the rule the inbox applies', () => {
    expect(INBOX_ALERT_RULES.kill).toBe(killAlert);
  });
});

describe("what selling a kill's legs brings", () => {
  it('writes a bid under a cent to the tenth of a cent, so the proceeds add up on screen', () => {
    // A: 18.32 x 0.001 = 0.01832 -> 0.02; B: 18.52 x 0.02 = 0.3704 -> 0.37; total 0.02 + 0.37 = 0.39
    const text = saleText({
      market: { city: 'madrid', market_date: '2026-12-03' },
      legs: [
        { leg: 'A', bucket_label: '16°C', shares: 18.32, bid: 0.001 },
        { leg: 'B', bucket_label: '17°C', shares: 18.52, bid: 0.02 },
      ],
      kill: { sell_at_market: true, reason: 'the day has peaked' },
    });
    expect(text).toBe(
      'Sell A 16°C 18.32 sh at bid 0.001 = 0.02 USD, B 17°C 18.52 sh at bid 0.02 = 0.37 USD; proceeds 0.39 USD',
    );
  });
});
