import { describe, expect, it } from 'vitest';
import type { StrategyRecord } from '../../src/contract/strategies.js';
import { dayGroups, grandTotal } from '../../src/domain/position-groups.js';
import type {
  Family,
  Mark,
  PickPosition,
  Priced,
  PricedPositions,
  TradePosition,
} from '../../src/domain/position-pnl.js';

const mark = (stake: number, pnl: number | null): Mark => ({ entry: 0.5, current: null, source: null, stake, pnl });
const record = (id: number, city_id: string, local_date: string, stake: number, pnl: number | null) =>
  ({
    family: 'no24',
    item: { id, city_id, local_date } as StrategyRecord,
    mark: mark(stake, pnl),
  }) as Priced<StrategyRecord>;
const trade = (id: number, city_id: string, market_date: string, stake: number, pnl: number | null) =>
  ({
    family: 'edge',
    item: { engine_trade_id: id, city_id, market_date } as TradePosition,
    mark: mark(stake, pnl),
  }) as Priced<TradePosition>;

const NAMES: Record<string, string> = { nyc: 'New York City', ams: 'Amsterdam', zrh: 'Zurich' };
const name = (id: string) => NAMES[id] ?? id;
// each city's today: 11-21 (decided: an earlier date)
const decided = (_city: string, date: string) => date < '2026-11-21';

const book: PricedPositions<PickPosition, TradePosition> = {
  strategies: [
    record(1, 'nyc', '2026-11-21', 10, 2),
    record(2, 'nyc', '2026-11-21', 5, -1.25),
    record(3, 'zrh', '2026-11-20', 4, null),
    record(4, 'ams', '2026-11-19', 6, 3),
    record(5, 'ams', '2026-11-21', 8, 0.5),
  ],
  locks: [],
  picks: [],
  trades: [trade(9, 'nyc', '2026-11-22', 10, -2), trade(8, 'zrh', '2026-11-20', 7, 1.5)],
  counts: { strategies: { no24: 5, yescore: 0, 'svc-max-picks': 0 }, locks: 0, picks: 0, trades: 2 },
};

describe('the book by city-day', () => {
  it('puts live days first (soonest first, then by city name), decided ones after (newest first), with subtotals', () => {
    const groups = dayGroups(book, decided, name);
    expect(groups.map((g) => [g.city_id, g.date, g.decided, g.n, g.priced, g.mark.stake, g.mark.pnl])).toEqual([
      ['ams', '2026-11-21', false, 1, 1, 8, 0.5],
      ['nyc', '2026-11-21', false, 2, 2, 15, 0.75], // 10 + 5; +2.00 - 1.25
      ['nyc', '2026-11-22', false, 1, 1, 10, -2],
      ['zrh', '2026-11-20', true, 2, 1, 11, 1.5], // 4 (unpriced) + 7; the priced trade's +1.50 alone
      ['ams', '2026-11-19', true, 1, 1, 6, 3],
    ]);
    expect(groups[3]?.strategies.map((s) => s.item.id)).toEqual([3]);
    expect(groups[3]?.trades.map((t) => t.item.engine_trade_id)).toEqual([8]);
  });

  it('sums the families into one grand total, of the priced P&L', () => {
    const row = (
      family: Family | 'pick not received',
      open: number,
      count: number,
      priced: number,
      stake: number,
      pnl: number | null,
    ) => ({
      family,
      open,
      count,
      priced,
      mark: mark(stake, pnl),
    });
    // 6 + 2 + 1 open; 39.9 + 17 + 5 staked; +2.05 + 1.75, the unpriced row adds nothing
    expect(
      grandTotal([
        row('no24', 6, 6, 6, 39.9, 2.05),
        row('fusion-locks', 2, 2, 2, 17, 1.75),
        row('pick not received', 1, 1, 0, 5, null),
      ]),
    ).toEqual({
      open: 9,
      count: 9,
      priced: 8,
      mark: { entry: null, current: null, source: null, stake: 61.9, pnl: 3.8 },
    });
    expect(grandTotal([row('no24', 0, 0, 0, 0, null)]).mark.pnl).toBeNull();
  });
});
