import { describe, expect, it } from 'vitest';
import { type BookHorizon, booksNote, picksNote } from '../../src/domain/book-horizon.js';
import { familyTotals, type Mark, type PickPosition, type PricedPick } from '../../src/domain/position-pnl.js';

/** The listener's first verified delivery at 13:00Z on 2026-11-21. */
const HORIZON: BookHorizon = { at: '2026-11-21T13:00:00Z', ms: Date.parse('2026-11-21T13:00:00Z'), from: 'delivery' };
/** Paris' 2026-11-21 began at 23:00Z the day before (UTC+1); New York's at 05:00Z (UTC-5). */
const PARIS_DAY = Date.parse('2026-11-20T23:00:00Z');
const NYC_DAY = Date.parse('2026-11-21T05:00:00Z');

describe('the book’s horizon (domain/book-horizon.ts)', () => {
  it('says a day that began before the horizon misses picks, and nothing of one that began after it', () => {
    expect(picksNote(HORIZON, PARIS_DAY)).toBe('insurance picks since 11-21 13:00Z');
    expect(picksNote(HORIZON, PARIS_DAY, 'iso')).toBe('insurance picks since 2026-11-21T13:00:00Z');
    // the next day began at 2026-11-21T23:00Z, after 13:00Z: its book is whole
    expect(picksNote(HORIZON, Date.parse('2026-11-21T23:00:00Z'))).toBeNull();
    // a day that begins at the horizon's instant itself misses nothing
    expect(picksNote(HORIZON, HORIZON.ms)).toBeNull();
    // no horizon at all: no listener ever verified a delivery
    expect(picksNote(null, PARIS_DAY)).toBe('insurance picks: none received (no listener)');
    // several cities: the day that began first decides
    expect(booksNote(HORIZON, [NYC_DAY, PARIS_DAY])).toBe('insurance picks since 11-21 13:00Z');
    const early: BookHorizon = { ...HORIZON, ms: Date.parse('2026-11-20T22:00:00Z'), at: '2026-11-20T22:00:00Z' };
    expect(booksNote(early, [NYC_DAY, PARIS_DAY])).toBeNull();
  });

  it('counts an addon whose pick was not received apart from the insurance family, its stake held', () => {
    const mark = (stake: number, pnl: number | null): Mark => ({
      entry: null,
      current: null,
      source: null,
      stake,
      pnl,
    });
    const pick = (id: string, over: Partial<PickPosition> = {}): PickPosition => ({
      pick_id: id,
      parent_pick_id: null,
      city_id: 'paris',
      market_date: '2026-11-21',
      legs: [],
      ...over,
    });
    const priced = (p: PickPosition, m: Mark): PricedPick<PickPosition> => ({ pick: p, legs: [], mark: m, addons: [] });
    const totals = familyTotals({
      strategies: [],
      locks: [],
      picks: [
        priced(pick('a'), mark(10, 0.5)),
        // its parent never reached the cache: it stands on its own, 5.00 staked, +1.00
        priced(pick('b', { parent_pick_id: 'x', parent_not_received: true }), mark(5, 1)),
      ],
      trades: [],
      counts: { strategies: { no24: 0, yescore: 0, 'svc-max-picks': 0 }, locks: 0, picks: 2, trades: 0 },
    });
    const insurance = totals.find((t) => t.family === 'insurance');
    // the received pick alone: 1 open, 10.00 staked, +0.50
    expect(insurance).toMatchObject({ open: 1, count: 1, priced: 1, mark: { stake: 10, pnl: 0.5 } });
    expect(totals.at(-1)).toMatchObject({
      family: 'pick not received',
      open: 1,
      count: 1,
      priced: 1,
      mark: { stake: 5, pnl: 1 },
    });
  });
});
