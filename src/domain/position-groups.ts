import type { FusionLock } from '../contract/fusion-locks.js';
import type { StrategyRecord } from '../contract/strategies.js';
import {
  type familyTotals,
  type Mark,
  type PickPosition,
  type Priced,
  type PricedPick,
  type PricedPositions,
  type TradePosition,
  total,
} from './position-pnl.js';
import { round } from './units.js';

/**
 * The open book as a trader reads it (issue 45 item 5): by city-day, each with its subtotal, the days still running
 * (live) apart from those whose day is over (decided: the local midnight after it has passed, so its high is set and
 * only the service's settlement is to come), and one grand total of everything held.
 */

/** One city-day's open positions and their subtotal. */
export interface DayGroup<Pick extends PickPosition, Trade extends TradePosition> {
  city_id: string;
  date: string;
  /** The day is over at the read's instant (its local midnight has passed). */
  decided: boolean;
  strategies: Priced<StrategyRecord>[];
  locks: Priced<FusionLock>[];
  picks: PricedPick<Pick>[];
  trades: Priced<Trade>[];
  /** Positions (a pick and each addon one), how many of them priced, and their stake and P&L (of those priced). */
  n: number;
  priced: number;
  mark: Mark;
}

/**
 * The book's city-days, live ones first (soonest first), then decided ones (newest first); within a date by the
 * order `name` gives the cities (the trader's words, not ids). A pick's addons stay under it, on its day; an addon
 * whose own pick the cache never received is not here (DESIGN 4: counted apart, `pick not received`).
 */
export function dayGroups<Pick extends PickPosition, Trade extends TradePosition>(
  book: PricedPositions<Pick, Trade>,
  decided: (cityId: string, date: string) => boolean,
  name: (cityId: string) => string,
): DayGroup<Pick, Trade>[] {
  const groups = new Map<string, DayGroup<Pick, Trade>>();
  const groupOf = (city_id: string, date: string): DayGroup<Pick, Trade> => {
    const key = `${city_id}|${date}`;
    let g = groups.get(key);
    if (!g) {
      g = {
        city_id,
        date,
        decided: decided(city_id, date),
        strategies: [],
        locks: [],
        picks: [],
        trades: [],
        n: 0,
        priced: 0,
        mark: total([]),
      };
      groups.set(key, g);
    }
    return g;
  };
  for (const s of book.strategies) groupOf(s.item.city_id, s.item.local_date).strategies.push(s);
  for (const l of book.locks) groupOf(l.item.city_id, l.item.local_date).locks.push(l);
  for (const p of book.picks)
    if (!p.pick.parent_not_received) groupOf(p.pick.city_id, p.pick.market_date).picks.push(p);
  for (const t of book.trades) groupOf(t.item.city_id, t.item.market_date).trades.push(t);
  const pickMarks = (p: PricedPick<Pick>): Mark[] => [p.mark, ...p.addons.flatMap(pickMarks)];
  for (const g of groups.values()) {
    const marks = [
      ...g.strategies.map((s) => s.mark),
      ...g.locks.map((l) => l.mark),
      ...g.picks.flatMap(pickMarks),
      ...g.trades.map((t) => t.mark),
    ];
    g.n = marks.length;
    g.priced = marks.filter((m) => m.pnl !== null).length;
    g.mark = total(marks);
  }
  const byName = (a: DayGroup<Pick, Trade>, b: DayGroup<Pick, Trade>) => name(a.city_id).localeCompare(name(b.city_id));
  return [...groups.values()].sort((a, b) => {
    if (a.decided !== b.decided) return a.decided ? 1 : -1;
    if (a.date !== b.date) return a.date < b.date === !a.decided ? -1 : 1;
    return byName(a, b);
  });
}

type FamilyTotal = ReturnType<typeof familyTotals>[number];

/**
 * The grand total of the book: every open position of every family row, those whose pick was not received included
 * (they are held: the board's staked and P&L count them too), the stake of those listed and the P&L of those priced.
 */
export function grandTotal(totals: readonly FamilyTotal[]): {
  open: number;
  count: number;
  priced: number;
  mark: Mark;
} {
  const known = totals.filter((t) => t.mark.pnl !== null);
  const sum = (f: (t: FamilyTotal) => number) => totals.reduce((n, t) => n + f(t), 0);
  return {
    open: sum((t) => t.open),
    count: sum((t) => t.count),
    priced: sum((t) => t.priced),
    mark: {
      ...total([]),
      stake: round(sum((t) => t.mark.stake)),
      pnl: known.length === 0 ? null : round(known.reduce((n, t) => n + (t.mark.pnl ?? 0), 0)),
    },
  };
}
