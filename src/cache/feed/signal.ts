import type { Outcome, StrategyFamily } from '../../contract/strategies.js';

export type SignalKind =
  | 'kill'
  | 'pick'
  | 'addon'
  | 'edge-exit'
  | 'edge-entry'
  | 'lock-resolved'
  | 'lock'
  | 'svc-max-picks'
  | 'yescore'
  | 'no24'
  | 'test';

/**
 * A position in the Signals feed. The feed is ordered newest first by `at`, then by `rank` (the kind's place when
 * two signals share an instant, RANK), then by `key` descending: a total order, so keyset paging never skips or
 * repeats.
 */
export interface FeedKey {
  at: number;
  rank: number;
  key: string | number;
}

/** A bucket a signal is about: by its leg (A, B, a hedge's C) when it is a leg of an insurance pick. */
export interface SignalBucket {
  leg: string | null;
  label: string;
}

/** What every signal shows, whatever it came from. */
interface SignalColumns extends FeedKey {
  /** `at` follows from the market's rules (strategy entry times, settlement at local midnight), not from the data. */
  estimated: boolean;
  city_id: string;
  /** The city's IANA zone, when known. */
  tz: string | null;
  market_date: string;
  /** One bucket for most signals; a pick's, addon's or kill's legs; none for a test delivery. */
  buckets: SignalBucket[];
  side: 'YES' | 'NO' | null;
  /** One price per leg (a pick has two), none for a kill (it sells at market). */
  prices: number[];
  stake: number | null;
  /** The id of the underlying row: pick_id, engine_trade_id, lock id or record id. */
  ref: string;
}

/** What a strategy record's model believed: svc-max picks by probability and edge, the others by exact-hit rate. */
export type StrategyBelief = { model_prob: number; edge: number } | { model: string; model_exact_pct: number };

/**
 * What each kind of signal says beyond its columns, as the fields it was given: the Signals pane words them (its
 * note column and the detail's reasoning), the cache holds no display text.
 */
export type SignalFacts =
  | { kind: 'kill'; reason: string | null }
  | { kind: 'pick' }
  | { kind: 'addon'; parent_pick_id: string | null }
  | { kind: 'edge-entry'; reason: string }
  /** `pnl_usd`: exit proceeds less entry cost, to the cent; null while the entry is not in the cache. */
  | { kind: 'edge-exit'; operation: string; reason: string; pnl_usd: number | null }
  | { kind: 'test'; message: string | null }
  | { kind: 'lock'; peak_hour: number }
  | { kind: 'lock-resolved'; hit: boolean; pnl_usd: number }
  /** `outcome` and `roi`: the settled record's result, both null while it is open. */
  | { kind: StrategyFamily; belief: StrategyBelief; outcome: Outcome | null; roi: number | null };

/** One row of the Signals feed, whatever it came from. */
export type Signal = SignalColumns & SignalFacts;

/**
 * Each kind's place among the signals of one instant, its `rank`: the kinds of one source share it (a pick and an
 * addon), no two sources do, so a tie on instant and rank is within one source and compares its own keys (a number
 * with a number, a text with a text; a delivery's `seq` and a lock's id would compare neither way). Closing comes
 * before opening (a kill before a pick, an exit before an entry, a settlement before a lock); a `webhook.test`, the
 * delivery a trader has just asked for and is looking for, before the settlements of the same instant, whose
 * instant is only inferred (local midnight); the strategy records, inferred too, last.
 */
export const RANK: Readonly<Record<SignalKind, number>> = {
  kill: 0,
  pick: 1,
  addon: 1,
  'edge-exit': 2,
  'edge-entry': 3,
  test: 4,
  'lock-resolved': 5,
  lock: 6,
  'svc-max-picks': 7,
  yescore: 8,
  no24: 9,
};

/** Negative when `a` comes first in the feed (is newer). */
export function compareFeed(a: FeedKey, b: FeedKey): number {
  if (a.at !== b.at) return b.at - a.at;
  if (a.rank !== b.rank) return a.rank - b.rank;
  if (typeof a.key === 'string' && typeof b.key === 'string') return -byCodePoint(a.key, b.key);
  return a.key < b.key ? 1 : a.key > b.key ? -1 : 0;
}

/**
 * Text in SQLite's order (its BINARY collation compares UTF-8 bytes, which is code point order), so a page's order
 * and the SQL cursor that starts the next page agree. JavaScript's `<` compares UTF-16 units, which differs where a
 * character past U+FFFF (a surrogate pair, D800-DFFF) meets one from U+E000 to U+FFFF: a lock id may hold either.
 */
function byCodePoint(a: string, b: string): number {
  if (a === b) return 0;
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return codePointRank(x) - codePointRank(y);
  }
  return a.length - b.length;
}

/** A UTF-16 unit moved so surrogates (code points past U+FFFF) sort after U+E000-U+FFFF, as in code point order. */
const codePointRank = (unit: number): number =>
  unit >= 0xd800 && unit <= 0xdfff ? unit + 0x2000 : unit >= 0xe000 ? unit - 0x800 : unit;

/** The IANA zone of each city, by city id. */
export type Zones = ReadonlyMap<string, string>;
