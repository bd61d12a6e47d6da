import { describe, expect, it } from 'vitest';
import { venueCost } from '../../src/domain/settlement.js';
import { CROSS_TOLERANCE, type VenueQuote, venueCross } from '../../src/domain/venue-cross.js';

// Comparisons with a tolerance (toBeCloseTo, 10 digits): prices in cents are not exact in binary.
const a = (yesPrice: number, noPrice: number): VenueQuote => ({ venue: 'mkta', yesPrice, noPrice });
const b = (yesPrice: number, noPrice: number): VenueQuote => ({ venue: 'mktb', yesPrice, noPrice });

describe('venueCost', () => {
  it('is half the overround, never under a cent', () => {
    // 0.40 + 0.64 = 1.04: (1.04 - 1) / 2 = 0.02
    expect(venueCost(0.4, 0.64)).toBeCloseTo(0.02, 10);
    // 0.40 + 0.62 = 1.02: 0.01 by the overround, the floor too
    expect(venueCost(0.4, 0.62)).toBeCloseTo(0.01, 10);
    // 0.40 + 0.58 = 0.98: under 1, the floor 0.01
    expect(venueCost(0.4, 0.58)).toBe(0.01);
  });
});

describe('venueCross', () => {
  // mkta sells YES at 0.40 (no 0.62: cost max(0.01, 0.02 / 2) = 0.01). mktb's NO at n bids 1 - n for YES; its YES
  // 0.41 + n is under 1.01 for every n here, so its cost is 0.01. margin = (1 - n) - 0.40 - 0.01 - 0.01 = 0.58 - n.
  it('margin exactly 0 is no cross (0.58 - 0.58, which the float arithmetic puts at +1.7e-17)', () => {
    expect(venueCross(a(0.4, 0.62), b(0.41, 0.58))).toBeNull();
  });

  it('a cent more is a cross: mktb NO 0.57 bids 0.43, margin 0.43 - 0.40 - 0.02 = 0.01', () => {
    const cross = venueCross(a(0.4, 0.62), b(0.41, 0.57));
    expect(cross).not.toBeNull();
    expect(cross?.buy).toBe('mkta');
    expect(cross?.sell).toBe('mktb');
    expect(cross?.ask).toBeCloseTo(0.4, 10);
    expect(cross?.bid).toBeCloseTo(0.43, 10);
    expect(cross?.margin).toBeCloseTo(0.01, 10);
    expect(cross?.margin).toBeGreaterThan(CROSS_TOLERANCE);
  });

  it('a cent less is none either (margin -0.01)', () => {
    expect(venueCross(a(0.4, 0.62), b(0.41, 0.59))).toBeNull();
  });

  it('the other direction: mktb sells YES, mkta bids for it', () => {
    // mktb YES 0.40 (no 0.62, cost 0.01); mkta NO 0.57 bids 0.43 (yes 0.41: 0.98, cost 0.01): 0.43 - 0.40 - 0.02 = 0.01
    const cross = venueCross(a(0.41, 0.57), b(0.4, 0.62));
    expect(cross?.buy).toBe('mktb');
    expect(cross?.sell).toBe('mkta');
    expect(cross?.ask).toBeCloseTo(0.4, 10);
    expect(cross?.bid).toBeCloseTo(0.43, 10);
    expect(cross?.margin).toBeCloseTo(0.01, 10);
    // the same quotes one cent worse (mkta NO 0.58): margin 0
    expect(venueCross(a(0.41, 0.58), b(0.4, 0.62))).toBeNull();
  });

  it('charges each venue its own overround: Miami 76-77°F, 0.393 on mkta and 0.549 on mktb', () => {
    // mkta yes 0.393 no 0.627 (1.020: cost 0.01); mktb yes 0.549 no 0.411 (0.960: cost 0.01):
    // buy mkta at 0.393, sell on mktb at 1 - 0.411 = 0.589: 0.589 - 0.393 - 0.02 = 0.176
    const cross = venueCross(a(0.393, 0.627), b(0.549, 0.411));
    expect(cross?.buy).toBe('mkta');
    expect(cross?.margin).toBeCloseTo(0.176, 10);
    // mktb wider: yes 0.549 no 0.531 (1.080: cost 0.04); bid 1 - 0.531 = 0.469: 0.469 - 0.393 - 0.01 - 0.04 = 0.026
    expect(venueCross(a(0.393, 0.627), b(0.549, 0.531))?.margin).toBeCloseTo(0.026, 10);
    // yes 0.549 no 0.581 (1.130: cost 0.065); bid 0.419: 0.419 - 0.393 - 0.01 - 0.065 = -0.049: none
    expect(venueCross(a(0.393, 0.627), b(0.549, 0.581))).toBeNull();
  });

  it('takes the larger direction when both pay', () => {
    // both venues under 1 in all. mkta yes 0.20 no 0.30, mktb yes 0.30 no 0.20, each cost 0.01:
    // buy mkta: 0.80 - 0.20 - 0.02 = 0.58; buy mktb: 0.70 - 0.30 - 0.02 = 0.38
    const cross = venueCross(a(0.2, 0.3), b(0.3, 0.2));
    expect(cross?.buy).toBe('mkta');
    expect(cross?.margin).toBeCloseTo(0.58, 10);
  });

  it('counts only offers: an ask or a NO at the floor or the ceiling is no price to deal at', () => {
    // mkta YES 0.01 (the floor) against mktb NO 0.50 would pay 0.50 - 0.01 - 0.02 on paper: not an offer
    expect(venueCross(a(0.01, 0.99), b(0.5, 0.5))).toBeNull();
    // mktb NO 0.01 would bid 0.99 for YES: the floor, not an offer
    expect(venueCross(a(0.5, 0.5), b(0.99, 0.01))).toBeNull();
    // 0.011 is an offer: mkta YES 0.011 no 0.989 (1.000: cost 0.01), mktb NO 0.5 (yes 0.5, cost 0.01):
    // 0.5 - 0.011 - 0.02 = 0.469
    expect(venueCross(a(0.011, 0.989), b(0.5, 0.5))?.margin).toBeCloseTo(0.469, 10);
  });

  it('is null when a quote is missing', () => {
    expect(venueCross(null, b(0.41, 0.57))).toBeNull();
    expect(venueCross(a(0.4, 0.62), null)).toBeNull();
    expect(venueCross(null, null)).toBeNull();
  });
});
