import { describe, expect, it } from 'vitest';
import {
  breakthroughAlert,
  type CityDayMarket,
  dyingBucketAlerts,
  edgeAlerts,
  marketAlerts,
} from '../../src/alerts/market-alerts.js';
import { boardDay } from '../../src/board/board-day.js';
import { parseBucketLabel } from '../../src/domain/bucket-label.js';
import type { Holding } from '../../src/domain/held-buckets.js';
import { marketDay, primary, quote, range } from '../board/fixtures.js';

const AT = '2026-11-24T15:00:00.000Z';

const holding = (
  family: Holding['family'],
  ref: string,
  side: 'YES' | 'NO',
  label: string,
  shares: number,
  stake: number,
) => ({ family, ref, side, shares, stake, bucket: parseBucketLabel(label) }) as Holding;

/** New York's day as the board works it out (board/), with the holdings the rules watch. */
const market = (day: Parameters<typeof marketDay>[0] = {}, holdings: Holding[] = []): CityDayMarket => ({
  day: boardDay(marketDay(day)),
  holdings,
});

// Normal table: Φ(-2) = 0.022750, Φ(-1) = 0.158655, Φ(1) = 0.841345, Φ(2) = 0.977250.
// The whole-°C METAR lattice of a °F market (DESIGN 4): 52-53°F holds 11 °C (51.8 -> 52) only, 54-55°F holds 12 °C
// (53.6 -> 54) and 13 °C (55.4 -> 55), 56-57°F holds 14 °C (57.2 -> 57).

describe('the edge rule', () => {
  it('alerts once a city-day, the day’s best side at the first pass any side reaches edge_min', () => {
    // 54-55°F (12 and 13 °C) 0.682689, 56-57°F (14 °C) Φ(2) - Φ(1) = 0.135905; cost 0.01 on each quote
    // YES 54-55°F at 0.55: 0.682689 - 0.55 - 0.01 = +0.122689; NO 56-57°F at 0.70: 0.864095 - 0.70 - 0.01 = +0.154095;
    // YES 56-57°F at 0.02: +0.105905. All three reach 0.08: one alert, on the best, NO 56-57°F
    const m = market({
      mkta: [quote('54-55°F', 0.55, 0.47), quote('56-57°F', 0.02, 0.7)],
    });
    const out = edgeAlerts(m, 0.08, new Set(), AT);
    expect(out.alerts.map((a) => a.message)).toEqual([
      'nyc 2026-11-24: edge +15.4 points on NO 56-57°F at 0.70 on mkta (model 86.4%)',
    ]);
    expect(out.fired).toEqual([{ ref: 'nyc|2026-11-24|56-57°F|NO', city_id: 'nyc', local_date: '2026-11-24' }]);
    // the day fired already (another side, hours ago): nothing more that day, however the edges move
    expect(edgeAlerts(m, 0.08, new Set(['nyc|2026-11-24|54-55°F|YES']), AT)).toEqual({ alerts: [], fired: [] });
    // +0.154095 reaches 0.154; at 0.16 nothing does
    expect(edgeAlerts(m, 0.154, new Set(), AT).alerts).toHaveLength(1);
    expect(edgeAlerts(m, 0.16, new Set(), AT)).toEqual({ alerts: [], fired: [] });
  });

  it('takes the board’s price of a bucket and the better venue for each side, and names it', () => {
    // 54-55°F holds 12 and 13 °C: with N(12.5, 1) °C, P(11.5 <= X < 13.5) = Φ(1) - Φ(-1) = 0.682689
    // mkta YES 0.55 / NO 0.47: cost max(0.01, (1.02 - 1) / 2 = 0.01) = 0.01; YES 0.682689 - 0.55 - 0.01 = 0.122689
    // mktb YES 0.50 / NO 0.52: cost 0.01; YES 0.682689 - 0.50 - 0.01 = 0.172689 (better: mktb)
    // NO on either: 0.317311 - 0.47 - 0.01 = -0.162689 and 0.317311 - 0.52 - 0.01 = -0.212689: no alert
    const m = market({ mkta: [quote('54-55°F', 0.55, 0.47)], mktb: [quote('54-55°F', 0.5, 0.52)] });
    const out = edgeAlerts(m, 0.08, new Set(), AT);
    expect(out.alerts).toEqual([
      {
        severity: 'info',
        kind: 'edge',
        ref: 'nyc|2026-11-24|54-55°F|YES',
        city_id: 'nyc',
        // the instant of mktb's price (the fixture's snapshots, 16:55Z), not of the pass (17:00Z)
        created_at: '2026-11-24T16:55:00Z',
        message: 'nyc 2026-11-24: edge +17.3 points on YES 54-55°F at 0.50 on mktb (model 68.3%)',
        // found late is judged by mktb's poll interval
        stream: 'mktb-buckets',
      },
    ]);
    expect(out.fired).toEqual([{ ref: 'nyc|2026-11-24|54-55°F|YES', city_id: 'nyc', local_date: '2026-11-24' }]);
  });

  it('never names a side the board calls no edge: a YES at the 0.01 floor is not an offer', () => {
    // 56-57°F holds only 14 °C (57.2 -> 57): with N(12.5, 1) °C, P(13.5 <= X < 14.5) = Φ(2) - Φ(1) = 0.977250 -
    // 0.841345 = 0.135905. YES 0.01 / NO 0.99: cost max(0.01, 0) = 0.01; YES 0.135905 - 0.01 - 0.01 = +0.115905, over
    // 0.08, but 0.01 is no offer (DESIGN 4: strictly between 0.01 and 0.99); NO 0.864095 - 0.99 - 0.01 < 0
    const m = market({ mkta: [quote('56-57°F', 0.01, 0.99)] });
    expect(m.day.best).toBeNull();
    expect(edgeAlerts(m, 0.08, new Set(), AT)).toEqual({ alerts: [], fired: [] });
    // at 0.02 the same side is an offer: 0.135905 - 0.02 - max(0.01, 0.005) = +0.105905
    const offered = market({ mkta: [quote('56-57°F', 0.02, 0.99)] });
    expect(edgeAlerts(offered, 0.08, new Set(), AT).alerts.map((a) => a.message)).toEqual([
      'nyc 2026-11-24: edge +10.6 points on YES 56-57°F at 0.02 on mkta (model 13.6%)',
    ]);
  });

  it('prices a °F bucket on the whole-°C lattice: 52-53°F holds one degree, so a cheap YES is no edge', () => {
    // 52-53°F holds only 11 °C: P(10.5 <= X < 11.5) = Φ(-1) - Φ(-2) = 0.158655 - 0.022750 = 0.135905
    // YES 0.10 / NO 0.92: cost 0.01; YES 0.135905 - 0.10 - 0.01 = +0.025905, under 0.08: no alert
    // (read as a continuous °F high, N(54.5, 1.8) °F over [51.5, 53.5), the bucket would be worth about 0.24)
    const m = market({ mkta: [quote('52-53°F', 0.1, 0.92)] });
    expect(edgeAlerts(m, 0.08, new Set(), AT).alerts).toEqual([]);
    expect(edgeAlerts(m, 0.02, new Set(), AT).alerts.map((a) => a.message)).toEqual([
      'nyc 2026-11-24: edge +2.6 points on YES 52-53°F at 0.10 on mkta (model 13.6%)',
    ]);
  });

  it('conditions on the running high: a dead bucket is worth its whole NO', () => {
    // running high 14 °C (57.2 °F, settles at 57): 54-55°F (12 and 13 °C) is dead, p = 0. YES 0.05 / NO 0.93:
    // cost max(0.01, -0.01) = 0.01; NO edge 1 - 0 - 0.93 - 0.01 = 0.06: under 0.08, over 0.05
    const m = market({ highC: 14, mkta: [quote('54-55°F', 0.05, 0.93)] });
    expect(edgeAlerts(m, 0.08, new Set(), AT).alerts).toEqual([]);
    expect(edgeAlerts(m, 0.05, new Set(), AT).alerts.map((a) => a.message)).toEqual([
      'nyc 2026-11-24: edge +6.0 points on NO 54-55°F at 0.93 on mkta (model 100.0%)',
    ]);
  });

  it('needs a usable forecast, both prices and a bucket it can read in the market unit', () => {
    const quotes = [quote('54-55°F', 0.2, 0.8)];
    // with N(12.5, 1) the YES here is worth 0.682689 - 0.2 - 0.01 = +0.47: each case below takes something away
    expect(edgeAlerts(market({ mkta: quotes }), 0.08, new Set(), AT).alerts).toHaveLength(1);
    for (const forecast of [null, primary(12.5, 0), primary(12.5, -1), primary(undefined, 1), primary(12.5, undefined)])
      expect(edgeAlerts(market({ forecast, mkta: quotes }), 0.08, new Set(), AT).alerts).toEqual([]);
    const unpriced = [quote('54-55°F', null, 0.8)];
    expect(edgeAlerts(market({ mkta: unpriced }), 0.08, new Set(), AT).alerts).toEqual([]);
    const celsius = [quote('21°C', 0.2, 0.8)];
    expect(edgeAlerts(market({ mkta: celsius }), 0.08, new Set(), AT).alerts).toEqual([]);
    const unreadable = [quote('54 to 55 F', 0.01, 0.2)];
    expect(edgeAlerts(market({ mkta: unreadable }), 0.08, new Set(), AT).alerts).toEqual([]);
  });
});

describe('the dying bucket rule', () => {
  const holdings = [
    holding('yescore', '2', 'YES', '54-55°F', 10, 4),
    holding('insurance', 'P1', 'YES', '54-55°F', 20.12345, 2),
    // a NO on a dead bucket has won; a YES above the high is alive
    holding('no24', '3', 'NO', '54-55°F', 5, 4.5),
    holding('yescore', '4', 'YES', '56-57°F', 8, 3),
  ];

  it('raises one high alert a dead held bucket, naming every YES on it and their stake', () => {
    // 14 °C = 57.2 °F settles at 57, above 54-55°F's 12 and 13 °C: dead. 10 + 20.12345 = 30.12345 shares (30.12),
    // 4 + 2 USD
    expect(dyingBucketAlerts(market({ highC: 14 }, holdings), AT)).toEqual([
      {
        severity: 'high',
        kind: 'dying-bucket',
        ref: 'nyc|2026-11-24|54-55°F',
        city_id: 'nyc',
        created_at: AT,
        once: true,
        message:
          'nyc 2026-11-24: held bucket 54-55°F died, METAR high so far 57.2°F settles at 57°F or more; ' +
          'YES 30.12 shares, 6.00 USD staked (yescore 2, insurance P1)',
      },
    ]);
  });

  it('waits for the high to settle above every degree the bucket holds: 13 °C is still in 54-55°F, 14 is not', () => {
    expect(dyingBucketAlerts(market({ highC: 13 }, holdings), AT)).toEqual([]);
    expect(dyingBucketAlerts(market({ highC: 14 }, holdings), AT).map((a) => a.ref)).toEqual([
      'nyc|2026-11-24|54-55°F',
    ]);
    expect(dyingBucketAlerts(market({ highC: null }, holdings), AT)).toEqual([]);
  });
});

describe('the breakthrough rule', () => {
  it('alerts once a city-day when the least true high is above every model, stamped with the reading', () => {
    // 24 °C = 75.2 °F reported whole: at least 23.5 °C = 42.3 + 32 = 74.3 °F, above the warmest model's 74.2 °F. The
    // fixture's reading is at 16:00Z (11:00 in New York), the range published before it; the pass's 15:00Z is not used
    expect(breakthroughAlert(market({ highC: 24, forecast: primary(23, 1), range: range(74.2, 23.44) }), AT)).toEqual({
      severity: 'warning',
      kind: 'breakthrough',
      ref: 'nyc|2026-11-24',
      city_id: 'nyc',
      created_at: '2026-11-24T16:00:00Z',
      once: true,
      message:
        "nyc 2026-11-24: METAR high 75.2°F at 11:00 local (at least 74.3°F) is above every model's Tmax then (warmest 74.2°F): forecast breakthrough",
    });
    // 74.9 °F: 74.3 is not above it (the half degree a whole-°C report cannot resolve); nor 75.2, nor no range
    expect(breakthroughAlert(market({ highC: 24, range: range(74.9, 23.83) }), AT)).toBeUndefined();
    expect(breakthroughAlert(market({ highC: 24, range: range(75.2, 24) }), AT)).toBeUndefined();
    expect(breakthroughAlert(market({ highC: 24, range: null }), AT)).toBeUndefined();
  });

  it('goes with the other rules in one write', () => {
    // N(23, 1) °C, running high 24 °C (75.2 °F, settles at 75): 72-73°F holds 22 and 23 °C (71.6 -> 72, 73.4 -> 73),
    // dead, p = 0; NO 1 - 0.72 - 0.01 = 0.27. The warmest model 74.2 °F, under 23.5 °C = 74.3 °F: breakthrough
    const m = market(
      { highC: 24, forecast: primary(23, 1), range: range(74.2, 23.44), mkta: [quote('72-73°F', 0.3, 0.72)] },
      [holding('yescore', '2', 'YES', '72-73°F', 10, 4)],
    );
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

describe('a running high far outside the forecast (CHECK)', () => {
  it('raises nothing and fires nothing: the board flags the row instead', () => {
    // N(12.5, 1) °C and a METAR high of 24 °C: X >= 23.5 is z >= 11, no mass: every bucket but the top tail dead, the
    // tail 1. The same day as above would raise a dying bucket, a breakthrough and a +27 NO; here none of them
    const m = market(
      {
        highC: 24,
        range: range(74.9, 23.83),
        mkta: [quote('72-73°F', 0.3, 0.72), quote('74°F or higher', 0.02, 0.99)],
      },
      [holding('yescore', '2', 'YES', '72-73°F', 10, 4)],
    );
    expect(m.day.check).toBe(true);
    expect(m.day.buckets.map((b) => [b.label, b.p])).toEqual([
      ['72-73°F', 0],
      ['74°F or higher', 1],
    ]);
    expect(marketAlerts(m, 0.08, new Set(['nyc|2026-11-24|72-73°F|YES']), AT)).toEqual({
      alerts: [],
      fired: [],
    });
  });
});
