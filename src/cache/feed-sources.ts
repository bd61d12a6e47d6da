import type { EdgeEvent, InsuranceEvent } from '../contract/events.js';
import type { FusionLock } from '../contract/fusion-locks.js';

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
 * two signals share an instant), then by `key` descending: a total order, so keyset paging never skips or repeats.
 */
export interface FeedKey {
  at: number;
  rank: number;
  key: string | number;
}

/** One row of the Signals feed, whatever it came from. */
export interface Signal extends FeedKey {
  kind: SignalKind;
  /** `at` follows from the market's rules (strategy entry times, settlement at local midnight), not from the data. */
  estimated: boolean;
  city_id: string;
  /** The city's IANA zone, when known. */
  tz: string | null;
  market_date: string;
  bucket: string;
  side: 'YES' | 'NO' | null;
  /** One price per leg (a pick has two), none for a kill (it sells at market). */
  prices: number[];
  stake: number | null;
  note: string;
  /** The id of the underlying row: pick_id, engine_trade_id, lock id or record id. */
  ref: string;
}

/** Negative when `a` comes first in the feed (is newer). */
export function compareFeed(a: FeedKey, b: FeedKey): number {
  if (a.at !== b.at) return b.at - a.at;
  if (a.rank !== b.rank) return a.rank - b.rank;
  return a.key < b.key ? 1 : a.key > b.key ? -1 : 0;
}

export type Zones = ReadonlyMap<string, string>;
type Row = Record<string, unknown>;

/** A source whose instant is an indexed column: keyset on (ms, key) directly. */
export interface ExactSource {
  rank: number;
  table: string;
  ms: string;
  key: string;
  columns: string;
  where: string;
  toSignal(row: Row, zones: Zones): Signal;
}

/**
 * A source without a stored instant: its rows are scanned in the order of an indexed proxy (a date, or the lock
 * time) and each row's instant is derived. `lo`/`hi` bound `at - proxy`, which tells the scan when no further row
 * can make the page.
 */
export interface SkewedSource {
  rank: number;
  lo: number;
  hi: number;
  /** Rows with proxy <= the bound (or all), proxy descending. */
  olderSql(bounded: boolean): string;
  /** Rows with proxy >= the bound, proxy ascending. */
  newerSql: string;
  boundArg(ms: number): string | number;
  proxyOf(row: Row): number;
  toSignal(row: Row, zones: Zones): Signal;
}

const round2 = (n: number) => Math.round(n * 100) / 100;
const legsText = (event: InsuranceEvent) => event.legs.map((l) => `${l.leg} ${l.bucket_label}`).join(' + ');

function insuranceSignal(kind: SignalKind, rank: number, at: number, event: InsuranceEvent): Signal {
  const { market, trade } = event;
  const note =
    kind === 'kill'
      ? (event.kill?.reason ?? 'kill signal')
      : kind === 'addon'
        ? `hedge of pick ${trade.parent_pick_id?.slice(0, 8) ?? '?'}`
        : `${event.legs.length} legs`;
  return {
    kind,
    rank,
    at,
    key: trade.pick_id,
    estimated: false,
    city_id: market.city,
    tz: market.market_tz,
    market_date: market.market_date,
    bucket: legsText(event),
    side: 'YES',
    prices: kind === 'kill' ? [] : event.legs.map((l) => l.snapshot_price),
    stake: trade.total_cost_usd,
    note,
    ref: trade.pick_id,
  };
}

function edgeSignal(kind: 'edge-entry' | 'edge-exit', rank: number, row: Row, zones: Zones): Signal {
  const entry = typeof row.entry_json === 'string' ? (JSON.parse(row.entry_json) as EdgeEvent) : undefined;
  const own = JSON.parse(String(kind === 'edge-entry' ? row.entry_json : row.exit_json)) as EdgeEvent;
  const { trade, market } = own;
  let note = trade.reason;
  if (kind === 'edge-exit') {
    const pnl = entry ? ` P&L ${round2(trade.total_usd - entry.trade.total_usd).toFixed(2)}` : '';
    note = `${trade.operation}${pnl}: ${trade.reason}`;
  }
  return {
    kind,
    rank,
    at: Number(row.at_ms),
    key: trade.engine_trade_id,
    estimated: false,
    city_id: market.city,
    tz: zones.get(market.city) ?? null,
    market_date: market.market_date,
    bucket: trade.bucket_label,
    side: trade.side,
    prices: [trade.price],
    stake: trade.total_usd,
    note,
    ref: String(trade.engine_trade_id),
  };
}

export function lockSignal(
  kind: 'lock' | 'lock-resolved',
  rank: number,
  at: number,
  lock: FusionLock,
  zones: Zones,
): Signal {
  const pnl = lock.pnl_usd ?? 0;
  const note =
    kind === 'lock'
      ? `locked at peak hour ${lock.peak_hour}:00`
      : `${lock.hit ? 'HIT' : 'MISS'} ${pnl >= 0 ? '+' : ''}${pnl.toFixed(2)}`;
  return {
    kind,
    rank,
    at,
    key: lock.id,
    estimated: kind === 'lock-resolved',
    city_id: lock.city_id,
    tz: zones.get(lock.city_id) ?? null,
    market_date: lock.local_date,
    bucket: lock.bucket_label,
    side: 'YES',
    prices: [lock.yes_price],
    stake: round2(lock.yes_price * lock.tokens),
    note,
    ref: lock.id,
  };
}

/** A `webhook.test` from the webhooks page: no market, only proof that deliveries reach the listener. */
function testSignal(at: number, seq: number, body: string): Signal {
  const message = (JSON.parse(body) as { message?: unknown }).message;
  return {
    kind: 'test',
    rank: 4,
    at,
    key: seq,
    estimated: false,
    city_id: '',
    tz: null,
    market_date: '',
    bucket: '',
    side: null,
    prices: [],
    stake: null,
    note: `webhook test${typeof message === 'string' ? `: ${message}` : ''}`,
    ref: String(seq),
  };
}

export const EXACT_SOURCES: ExactSource[] = [
  {
    rank: 0,
    table: 'insurance_picks',
    ms: 'killed_ms',
    key: 'pick_id',
    columns: 'pick_id, kill_json',
    // a kill is the primary's: the addons it took along show in its detail, not as copies of the same row
    where: "status = 'killed' AND kill_json IS NOT NULL AND parent_pick_id IS NULL",
    toSignal: (row) => insuranceSignal('kill', 0, Number(row.at_ms), JSON.parse(String(row.kill_json))),
  },
  {
    rank: 1,
    table: 'insurance_picks',
    ms: 'created_ms',
    key: 'pick_id',
    columns: 'pick_id, created_json',
    where: 'created_json IS NOT NULL',
    toSignal: (row) => {
      const event = JSON.parse(String(row.created_json)) as InsuranceEvent;
      return insuranceSignal(event.trade.trade_kind === 'addon' ? 'addon' : 'pick', 1, Number(row.at_ms), event);
    },
  },
  {
    rank: 2,
    table: 'edge_trades',
    ms: 'exited_ms',
    key: 'engine_trade_id',
    columns: 'entry_json, exit_json',
    where: 'exit_json IS NOT NULL',
    toSignal: (row, zones) => edgeSignal('edge-exit', 2, row, zones),
  },
  {
    rank: 3,
    table: 'edge_trades',
    ms: 'entered_ms',
    key: 'engine_trade_id',
    columns: 'entry_json, exit_json',
    where: 'entry_json IS NOT NULL',
    toSignal: (row, zones) => edgeSignal('edge-entry', 3, row, zones),
  },
  {
    rank: 4,
    table: 'webhook_events',
    ms: 'received_ms',
    key: 'seq',
    columns: 'seq, body',
    where: "event_type = 'webhook.test'",
    toSignal: (row) => testSignal(Number(row.at_ms), Number(row.seq), String(row.body)),
  },
  {
    rank: 5,
    table: 'fusion_locks',
    ms: 'locked_ms',
    key: 'id',
    columns: 'json',
    where: '1',
    toSignal: (row, zones) => lockSignal('lock', 5, Number(row.at_ms), JSON.parse(String(row.json)), zones),
  },
];
