import { describe, expect, it } from 'vitest';
import { boardDay } from '../../src/board/board-day.js';
import { boardRow } from '../../src/board/board-row.js';
import type { MarketDay } from '../../src/board/market-day.js';
import { CROSS_WINDOW_MS, VENUE_SILENT_MS, venuesHeldUntil } from '../../src/board/venue-crosses.js';
import type { StreamState } from '../../src/cache/index.js';
import { marketDay, NO_BOOK, primary, quote } from './fixtures.js';

/**
 * CROSS on the board (issue 45 item 4): New York (°F), N(12.5, 1) °C, METAR high 12 °C, the bucket 54-55°F on both
 * venues. mkta sells its YES at 0.70 (no 0.32: 1.02, cost max(0.01, 0.02 / 2) = 0.01); mktb's NO at n bids 1 - n for
 * that YES, its YES 0.72 (0.72 + n <= 1.02 for every n here: cost 0.01). margin = (1 - n) - 0.70 - 0.01 - 0.01 =
 * 0.28 - n: n 0.27 crosses by a cent, n 0.28 is exactly 0 (no cross).
 */
const MKTA_AT = '2026-11-24T16:55:00Z';
const day = (no: number, mktbAt: string | null = MKTA_AT, over: Parameters<typeof marketDay>[0] = {}): MarketDay =>
  marketDay({
    highC: 12,
    mkta: [quote('54-55°F', 0.7, 0.32, '54-55f', MKTA_AT), quote('56-57°F', 0.1, 0.91, '56-57f', MKTA_AT)],
    mktb: [quote('54-55°F', 0.72, no, '54-55f', mktbAt)],
    ...over,
  });
const rowOf = (d: MarketDay) => boardRow(boardDay(d), NO_BOOK);
const flagsOf = (d: MarketDay) => rowOf(d).flags;

describe('CROSS on the board', () => {
  it('a cent of margin is a cross: the bucket carries it, the row flags it', () => {
    const row = rowOf(day(0.27));
    expect(row.flags).toEqual(['CROSS']);
    const bucket = row.buckets.find((b) => b.label === '54-55°F');
    expect(bucket?.cross?.buy).toBe('mkta');
    expect(bucket?.cross?.sell).toBe('mktb');
    // bid 1 - 0.27 = 0.73, margin 0.01
    expect(bucket?.cross?.bid).toBeCloseTo(0.73, 10);
    expect(bucket?.cross?.margin).toBeCloseTo(0.01, 10);
    // 56-57°F is on mkta alone: a quote missing, no cross
    expect(row.buckets.find((b) => b.label === '56-57°F')?.cross).toBeNull();
  });

  it('margin exactly 0 is none (0.28 - 0.28), nor is a cent under', () => {
    expect(flagsOf(day(0.28))).toEqual([]);
    expect(flagsOf(day(0.29))).toEqual([]);
  });

  it('the other way round: mktb sells, mkta bids', () => {
    // mktb YES 0.60 no 0.42 (1.02: cost 0.01) against mkta NO 0.32, which bids 0.68 for YES: 0.68 - 0.60 - 0.02 = 0.06
    const row = rowOf(marketDay({ highC: 12, mkta: day(0.3).mkta, mktb: [quote('54-55°F', 0.6, 0.42, '54-55f')] }));
    expect(row.flags).toEqual(['CROSS']);
    const cross = row.buckets.find((b) => b.label === '54-55°F')?.cross;
    expect([cross?.buy, cross?.sell]).toEqual(['mktb', 'mkta']);
    expect(cross?.margin).toBeCloseTo(0.06, 10);
  });

  it('compares snapshots at most two minutes apart: a stale venue never makes a cross', () => {
    expect(CROSS_WINDOW_MS).toBe(120_000);
    // mktb two minutes behind mkta (16:53:00Z against 16:55:00Z), and two minutes ahead: comparable
    expect(flagsOf(day(0.27, '2026-11-24T16:53:00Z'))).toEqual(['CROSS']);
    expect(flagsOf(day(0.27, '2026-11-24T16:57:00Z'))).toEqual(['CROSS']);
    // a second more either way: one venue is stale against the other
    expect(flagsOf(day(0.27, '2026-11-24T16:52:59Z'))).toEqual([]);
    expect(flagsOf(day(0.27, '2026-11-24T16:57:01Z'))).toEqual([]);
    // a snapshot without a time cannot be shown to be of the other's instant
    expect(flagsOf(day(0.27, null))).toEqual([]);
  });

  it('a venue silent longer than a half-hourly snapshot and the window before its stream’s instant is stale', () => {
    expect(VENUE_SILENT_MS).toBe(32 * 60_000);
    // both snapshots of 16:55:00Z; each venue's stream held up to 32 minutes later (17:27:00Z): still live (the venues
    // snapshot every half hour)
    const held = (mkta: string, mktb: string) => ({ mkta: Date.parse(mkta), mktb: Date.parse(mktb) });
    const heldTo = (mkta: string, mktb = '2026-11-24T17:27:00Z') =>
      flagsOf({ ...day(0.27), venueHeldUntilMs: held(mkta, mktb) });
    expect(heldTo('2026-11-24T17:27:00Z')).toEqual(['CROSS']);
    // a second more on either venue: it has missed a snapshot its stream would have brought
    expect(heldTo('2026-11-24T17:27:01Z')).toEqual([]);
    expect(heldTo('2026-11-24T17:27:00Z', '2026-11-24T17:27:01Z')).toEqual([]);
    // both streams dead at 10:00Z, held up to 16:00Z: six-hour-old prices that agree with each other cross nothing
    // (the high's reading at 09:00Z, the desk's run with no time: neither venue is `stale prices`)
    const d = day(0.27, '2026-11-24T10:00:00Z', {
      mkta: [quote('54-55°F', 0.7, 0.32, '54-55f', '2026-11-24T10:00:00Z')],
    });
    const dead = { ...d, metar: { ...d.metar, high: { f: 53.6, c: 12, since: Date.parse('2026-11-24T09:00:00Z') } } };
    expect(flagsOf(dead)).toEqual(['CROSS']);
    const at16 = { mkta: Date.parse('2026-11-24T16:00:00Z'), mktb: Date.parse('2026-11-24T16:00:00Z') };
    expect(flagsOf({ ...dead, venueHeldUntilMs: at16 })).toEqual([]);
  });

  it('a venue in `stale prices` (older than the reading that set the high) makes no cross', () => {
    // the high's reading at 16:55:00Z, the snapshots' own instant: comparable; a second later both are stale prices
    const since = (at: string) => {
      const d = day(0.27);
      return { ...d, metar: { ...d.metar, high: { f: 53.6, c: 12, since: Date.parse(at) } } };
    };
    expect(rowOf(since('2026-11-24T16:55:00Z'))).toMatchObject({ behind: null, flags: ['CROSS'] });
    expect(rowOf(since('2026-11-24T16:55:01Z'))).toMatchObject({ behind: 'prices', flags: [] });
  });

  it('holds a venue’s stream up to its completeness, never past the instant read as of', () => {
    const state = (stream: string, complete: string | null, success: string | null): StreamState => ({
      stream,
      last_success_at: success,
      last_error_at: null,
      last_error: null,
      rows: 0,
      complete_at: complete,
      last_success_host_ms: null,
    });
    const states = [
      state('mkta-buckets', '2026-11-24T16:00:00Z', '2026-11-24T16:00:05Z'),
      state('mktb-buckets', null, '2026-11-24T15:00:00Z'),
    ];
    // mkta: its completeness; mktb: a pass from before completeness was kept, its own stamp
    expect(venuesHeldUntil(states, Date.parse('2026-11-24T17:00:00Z'))).toEqual({
      mkta: Date.parse('2026-11-24T16:00:00Z'),
      mktb: Date.parse('2026-11-24T15:00:00Z'),
    });
    // as of 12:00Z every snapshot up to it is held: the instant itself
    expect(venuesHeldUntil(states, Date.parse('2026-11-24T12:00:00Z'))).toEqual({
      mkta: Date.parse('2026-11-24T12:00:00Z'),
      mktb: Date.parse('2026-11-24T12:00:00Z'),
    });
    // a venue whose stream never passed: no bound
    expect(venuesHeldUntil([states[0] as StreamState], Date.parse('2026-11-24T17:00:00Z')).mktb).toBeNull();
  });

  it('needs no model: shown while the model is behind, with no forecast, and beside CHECK', () => {
    // the snapshots of 16:55Z against METAR and forecasts held up to 16:50Z: no edge, the cross all the same
    const behind = rowOf(day(0.27, MKTA_AT, { modelKnownUntilMs: Date.parse('2026-11-24T16:50:00Z') }));
    expect([behind.behind, behind.best, behind.flags]).toEqual(['model', null, ['CROSS']]);
    expect(flagsOf(day(0.27, MKTA_AT, { forecast: null }))).toEqual(['CROSS']);
    // N(2, 0.5) °C against a running high of 12 °C: CHECK (board-row.ts), and the venues still cross
    expect(flagsOf(day(0.27, MKTA_AT, { forecast: primary(2, 0.5) }))).toEqual(['CHECK', 'CROSS']);
  });

  it('a day over crosses nothing: its outcome, not its prices, decides', () => {
    // 05:00Z on the 25th is New York's midnight: the day settled at its METAR high, 12 °C = 53.6 -> 54 °F
    const over = rowOf({ ...day(0.27), atMs: Date.parse('2026-11-25T05:00:00Z') });
    expect(over.settled).toBe(54);
    expect(over.flags).toEqual([]);
    expect(over.buckets.every((b) => b.cross === null)).toBe(true);
  });
});
