import type { EdgeEvent, InsuranceEvent } from '../../contract/events.js';
import type { FusionLock } from '../../contract/fusion-locks.js';
import { lockStake } from '../../domain/position-pnl.js';
import { round } from '../../domain/units.js';
import type { CacheTopic } from '../topics.js';
import { RANK, type Signal, type Zones } from './signal.js';

type Row = Record<string, unknown>;

/** A source of the feed whose instant is an indexed column: keyset on (ms, key) directly. */
export interface StoredInstantSource {
  rank: number;
  table: string;
  /** The change event `table`'s writes announce: what a pane showing the feed watches. */
  topic: CacheTopic;
  ms: string;
  key: string;
  columns: string;
  where: string;
  toSignal(row: Row, zones: Zones): Signal;
}

function insuranceSignal(kind: 'kill' | 'pick' | 'addon', at: number, event: InsuranceEvent): Signal {
  const { market, trade } = event;
  const columns = {
    rank: RANK[kind],
    at,
    key: trade.pick_id,
    estimated: false,
    city_id: market.city,
    tz: market.market_tz,
    market_date: market.market_date,
    buckets: event.legs.map((l) => ({ leg: l.leg, label: l.bucket_label })),
    side: 'YES' as const,
    prices: kind === 'kill' ? [] : event.legs.map((l) => l.snapshot_price),
    stake: trade.total_cost_usd,
    ref: trade.pick_id,
  };
  if (kind === 'kill') return { ...columns, kind, reason: event.kill?.reason ?? null };
  if (kind === 'addon') return { ...columns, kind, parent_pick_id: trade.parent_pick_id ?? null };
  return { ...columns, kind };
}

function edgeSignal(kind: 'edge-entry' | 'edge-exit', row: Row, zones: Zones): Signal {
  const entry = typeof row.entry_json === 'string' ? (JSON.parse(row.entry_json) as EdgeEvent) : undefined;
  const own = JSON.parse(String(kind === 'edge-entry' ? row.entry_json : row.exit_json)) as EdgeEvent;
  const { trade, market } = own;
  const columns = {
    rank: RANK[kind],
    at: Number(row.at_ms),
    key: trade.engine_trade_id,
    estimated: false,
    city_id: market.city,
    tz: zones.get(market.city) ?? null,
    market_date: market.market_date,
    buckets: [{ leg: null, label: trade.bucket_label }],
    side: trade.side,
    prices: [trade.price],
    stake: trade.total_usd,
    ref: String(trade.engine_trade_id),
  };
  if (kind === 'edge-entry') return { ...columns, kind, reason: trade.reason };
  const pnl = entry ? round(trade.total_usd - entry.trade.total_usd) : null;
  return { ...columns, kind, operation: trade.operation, reason: trade.reason, pnl_usd: pnl };
}

/** A fusion lock, as locked (at its lock time) or as settled (after its local midnight). */
export function lockSignal(kind: 'lock' | 'lock-resolved', at: number, lock: FusionLock, zones: Zones): Signal {
  const columns = {
    rank: RANK[kind],
    at,
    key: lock.id,
    estimated: kind === 'lock-resolved',
    city_id: lock.city_id,
    tz: zones.get(lock.city_id) ?? null,
    market_date: lock.local_date,
    buckets: [{ leg: null, label: lock.bucket_label }],
    side: 'YES' as const,
    prices: [lock.yes_price],
    stake: lockStake(lock),
    ref: lock.id,
  };
  if (kind === 'lock') return { ...columns, kind, peak_hour: lock.peak_hour };
  return { ...columns, kind, hit: Boolean(lock.hit), pnl_usd: lock.pnl_usd ?? 0 };
}

/** A `webhook.test` from the webhooks page: no market, only proof that deliveries reach the listener. */
function testSignal(at: number, seq: number, body: string): Signal {
  const message = (JSON.parse(body) as { message?: unknown }).message;
  return {
    kind: 'test',
    rank: RANK.test,
    at,
    key: seq,
    estimated: false,
    city_id: '',
    tz: null,
    market_date: '',
    buckets: [],
    side: null,
    prices: [],
    stake: null,
    message: typeof message === 'string' ? message : null,
    ref: String(seq),
  };
}

export const STORED_INSTANT_SOURCES: StoredInstantSource[] = [
  {
    rank: RANK.kill,
    table: 'insurance_picks',
    topic: 'insurance-picks',
    ms: 'killed_ms',
    key: 'pick_id',
    columns: 'pick_id, kill_json',
    // a kill is the primary's: the addons it took along show in its detail, not as copies of the same row
    where: "status = 'killed' AND kill_json IS NOT NULL AND parent_pick_id IS NULL",
    toSignal: (row) => insuranceSignal('kill', Number(row.at_ms), JSON.parse(String(row.kill_json))),
  },
  {
    rank: RANK.pick,
    table: 'insurance_picks',
    topic: 'insurance-picks',
    ms: 'created_ms',
    key: 'pick_id',
    columns: 'pick_id, created_json',
    where: 'created_json IS NOT NULL',
    toSignal: (row) => {
      const event = JSON.parse(String(row.created_json)) as InsuranceEvent;
      return insuranceSignal(event.trade.trade_kind === 'addon' ? 'addon' : 'pick', Number(row.at_ms), event);
    },
  },
  {
    rank: RANK['edge-exit'],
    table: 'edge_trades',
    topic: 'edge-trades',
    ms: 'exited_ms',
    key: 'engine_trade_id',
    columns: 'entry_json, exit_json',
    where: 'exit_json IS NOT NULL',
    toSignal: (row, zones) => edgeSignal('edge-exit', row, zones),
  },
  {
    rank: RANK['edge-entry'],
    table: 'edge_trades',
    topic: 'edge-trades',
    ms: 'entered_ms',
    key: 'engine_trade_id',
    columns: 'entry_json, exit_json',
    where: 'entry_json IS NOT NULL',
    toSignal: (row, zones) => edgeSignal('edge-entry', row, zones),
  },
  {
    rank: RANK.test,
    table: 'webhook_events',
    topic: 'webhook-events',
    ms: 'received_ms',
    key: 'seq',
    columns: 'seq, body',
    where: "event_type = 'webhook.test'",
    toSignal: (row) => testSignal(Number(row.at_ms), Number(row.seq), String(row.body)),
  },
  {
    rank: RANK.lock,
    table: 'fusion_locks',
    topic: 'fusion-locks',
    ms: 'locked_ms',
    key: 'id',
    columns: 'json',
    where: '1',
    toSignal: (row, zones) => lockSignal('lock', Number(row.at_ms), JSON.parse(String(row.json)), zones),
  },
];
