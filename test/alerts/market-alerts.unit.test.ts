import { describe, expect, it } from 'vitest';
import {
  breakthroughAlert,
  type CityDayMarket,
  dyingBucketAlerts,
  edgeAlerts,
  edgeArming,
  marketAlerts,
} from '../../src/alerts/market-alerts.js';
import { parseBucketLabel } from '../../src/domain/bucket-label.js';
import type { Holding } from '../../src/domain/held-buckets.js';

const AT = '2026-11-24T15:00:00.000Z';

const holding = (
  family: Holding['family'],
  ref: string,
  side: 'YES' | 'NO',
  label: string,
  shares: number,
  stake: number,
) => ({ family, ref, side, shares, stake, bucket: parseBucketLabel(label) }) as Holding;

const market = (over: Partial<CityDayMarket> = {}): CityDayMarket => ({
  cityId: 'nyc',
  date: '2026-11-24',
  unit: 'F',
  runningHigh: undefined,
  forecast: { mu: 70.5, sigma: 1 },
  modelsMax: null,
  quotes: { mkta: [], mktb: [] },
  holdings: [],
  ...over,
});

const quote = (bucket_label: string, yes_price: number, no_price: number) => ({ bucket_label, yes_price, no_price });

describe('the edge rule', () => {
  it('alerts once at edge_min, holds above half of it, re-arms below half, alerts again (edge_min 0.08)', () => {
    let fired = false;
    const step = (edge: number) => {
      const arming = edgeArming(edge, 0.08, fired);
      if (arming === 'alert') fired = true;
      if (arming === 'rearm') fired = false;
      return arming;
    };
    // 0.09 >= 0.08 alerts; 0.05 is not below 0.04 (half of 0.08): no re-arm; nor is 0.04 itself; 0.03 < 0.04
    // re-arms; 0.085 >= 0.08 alerts again; 0.2 while fired holds
    expect([0.09, 0.05, 0.04, 0.03, 0.085, 0.2].map(step)).toEqual(['alert', 'hold', 'hold', 'rearm', 'alert', 'hold']);
    // at the threshold itself: "at or above"
    expect(edgeArming(0.08, 0.08, false)).toBe('alert');
    expect(edgeArming(0.079, 0.08, false)).toBe('hold');
    expect(edgeArming(0.039, 0.08, true)).toBe('rearm');
  });

  it('prices a bucket by the forecast, takes the better venue for each side, and names it', () => {
    // p(70-71°F) with N(70.5, 1): P(69.5 <= X < 71.5) = Phi(1) - Phi(-1) = 0.682689
    // mkta YES 0.55 / NO 0.47: cost max(0.01, (1.02 - 1) / 2 = 0.01) = 0.01; YES 0.682689 - 0.55 - 0.01 = 0.122689
    // mktb YES 0.50 / NO 0.52: cost 0.01; YES 0.682689 - 0.50 - 0.01 = 0.172689 (better: mktb)
    // NO on either: 0.317311 - 0.47 - 0.01 = -0.162689 and 0.317311 - 0.52 - 0.01 = -0.212689: no alert
    const m = market({ quotes: { mkta: [quote('70-71°F', 0.55, 0.47)], mktb: [quote('70-71°F', 0.5, 0.52)] } });
    const out = edgeAlerts(m, 0.08, new Set(), AT);
    expect(out.alerts).toEqual([
      {
        severity: 'info',
        kind: 'edge',
        ref: 'nyc|2026-11-24|70-71°F|YES',
        city_id: 'nyc',
        created_at: AT,
        message: 'nyc 2026-11-24: edge +17.3 points on YES 70-71°F at 0.50 on mktb (model 68.3%)',
      },
    ]);
    expect(out.fired).toEqual([{ ref: 'nyc|2026-11-24|70-71°F|YES', city_id: 'nyc', local_date: '2026-11-24' }]);
    // the NO side was fired before and is now at -0.16, below 0.04: re-armed; the YES side fired: held
    const again = edgeAlerts(m, 0.08, new Set(['nyc|2026-11-24|70-71°F|YES', 'nyc|2026-11-24|70-71°F|NO']), AT);
    expect(again).toEqual({ alerts: [], fired: [], rearmed: ['nyc|2026-11-24|70-71°F|NO'] });
  });

  it('conditions on the running high: a dead bucket is worth its whole NO', () => {
    // running high 72.4°F settles at 72: 70-71°F is dead, p = 0. YES 0.05 / NO 0.93: cost max(0.01, -0.01) = 0.01
    // NO edge 1 - 0 - 0.93 - 0.01 = 0.06: under 0.08, over 0.05
    const m = market({ runningHigh: 72.4, quotes: { mkta: [quote('70-71°F', 0.05, 0.93)], mktb: [] } });
    expect(edgeAlerts(m, 0.08, new Set(), AT).alerts).toEqual([]);
    expect(edgeAlerts(m, 0.05, new Set(), AT).alerts.map((a) => a.message)).toEqual([
      'nyc 2026-11-24: edge +6.0 points on NO 70-71°F at 0.93 on mkta (model 100.0%)',
    ]);
  });

  it('needs a forecast, both prices and a bucket of the market unit', () => {
    const quotes = { mkta: [quote('70-71°F', 0.2, 0.8)], mktb: [] };
    expect(edgeAlerts(market({ forecast: null, quotes }), 0.08, new Set(), AT).alerts).toEqual([]);
    const unpriced = { mkta: [{ bucket_label: '70-71°F', yes_price: null, no_price: 0.8 }], mktb: [] };
    expect(edgeAlerts(market({ quotes: unpriced }), 0.08, new Set(), AT).alerts).toEqual([]);
    const celsius = { mkta: [quote('21°C', 0.2, 0.8)], mktb: [] };
    expect(edgeAlerts(market({ quotes: celsius }), 0.08, new Set(), AT).alerts).toEqual([]);
  });
});

describe('the dying bucket rule', () => {
  const holdings = [
    holding('yescore', '2', 'YES', '70-71°F', 10, 4),
    holding('insurance', 'P1', 'YES', '70-71°F', 20.12345, 2),
    // a NO on a dead bucket has won; a YES above the high is alive
    holding('no24', '3', 'NO', '70-71°F', 5, 4.5),
    holding('yescore', '4', 'YES', '72-73°F', 8, 3),
  ];

  it('raises one high alert a dead held bucket, naming every YES on it and their stake', () => {
    // 72.4 settles at 72, above 71, the top of 70-71°F: dead. 10 + 20.12345 = 30.12345 shares (30.12), 4 + 2 USD
    expect(dyingBucketAlerts(market({ runningHigh: 72.4, holdings }), AT)).toEqual([
      {
        severity: 'high',
        kind: 'dying-bucket',
        ref: 'nyc|2026-11-24|70-71°F',
        city_id: 'nyc',
        created_at: AT,
        once: true,
        message:
          'nyc 2026-11-24: held bucket 70-71°F died, METAR high so far 72.4°F settles at 72°F or more; ' +
          'YES 30.12 shares, 6.00 USD staked (yescore 2, insurance P1)',
      },
    ]);
  });

  it('waits for the high to settle above the top: 71.4 settles at 71, 71.5 at 72', () => {
    expect(dyingBucketAlerts(market({ runningHigh: 71.4, holdings }), AT)).toEqual([]);
    expect(dyingBucketAlerts(market({ runningHigh: 71.5, holdings }), AT).map((a) => a.ref)).toEqual([
      'nyc|2026-11-24|70-71°F',
    ]);
    expect(dyingBucketAlerts(market({ runningHigh: undefined, holdings }), AT)).toEqual([]);
  });
});

describe('the breakthrough rule', () => {
  it('alerts once a city-day when the running high is above every model, not at it', () => {
    expect(breakthroughAlert(market({ runningHigh: 75.2, modelsMax: 74.9 }), AT)).toEqual({
      severity: 'warning',
      kind: 'breakthrough',
      ref: 'nyc|2026-11-24',
      city_id: 'nyc',
      created_at: AT,
      once: true,
      message:
        "nyc 2026-11-24: METAR high so far 75.2°F is above every model's Tmax (warmest 74.9°F): forecast breakthrough",
    });
    expect(breakthroughAlert(market({ runningHigh: 74.9, modelsMax: 74.9 }), AT)).toBeUndefined();
    expect(breakthroughAlert(market({ runningHigh: 75.2, modelsMax: null }), AT)).toBeUndefined();
  });

  it('goes with the other rules in one write', () => {
    const m = market({
      runningHigh: 75.2,
      modelsMax: 74.9,
      holdings: [holding('yescore', '2', 'YES', '72-73°F', 10, 4)],
      quotes: { mkta: [quote('72-73°F', 0.3, 0.72)], mktb: [] },
    });
    // 72-73°F is dead at 75.2 (settles at 75): p = 0; NO 1 - 0.72 - 0.01 = 0.27
    const write = marketAlerts(m, 0.08, new Set(), AT);
    expect(write.alerts.map((a) => [a.kind, a.ref])).toEqual([
      ['dying-bucket', 'nyc|2026-11-24|72-73°F'],
      ['breakthrough', 'nyc|2026-11-24'],
      ['edge', 'nyc|2026-11-24|72-73°F|NO'],
    ]);
    expect(write.alerts[2]?.message).toBe(
      'nyc 2026-11-24: edge +27.0 points on NO 72-73°F at 0.72 on mkta (model 100.0%)',
    );
  });
});
