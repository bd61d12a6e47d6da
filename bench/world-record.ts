import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BoardRecordTrade, exportBoardRecord } from '../src/board/board-record.js';
import { openCache } from '../src/cache/index.js';
import { ApiClient } from '../src/client/api-client.js';
import type { HistoricalTable } from '../src/contract/historical.js';
import { PAPER_STAKE_USD } from '../src/domain/paper-trade.js';
import { backfill } from '../src/sync/backfill.js';
import { SyncEngine } from '../src/sync/sync-engine.js';

/** DESIGN 5's board's record is taken at the monitor's default `alerts.edge_min`. */
export const RECORD_EDGE_MIN = 0.08;

/**
 * What the board's record reads of a settled day (src/cache/history/board-record-days.ts): how it settled, the
 * venues' snapshots, the METAR readings and the desk's runs. The pass adds the cities, locks and polls.
 */
const RECORD_TABLES: readonly HistoricalTable[] = [
  'forecast_accuracy_daily',
  'metar_observations_history',
  'forecast_history',
  'mkta_buckets_history',
  'mktb_buckets_history',
];

/**
 * The board's record (DESIGN 4) as a trader gets it: a monitor cache synced from the running service (one pass of
 * the sync, then the history the record reads backfilled), and the monitor's own `export board-record` over it at
 * `edge_min` 0.08. The world is judged by the same code the trader's board runs, not by a copy of its rule.
 */
export async function syncedBoardRecord(baseUrl: string, apiKey: string): Promise<BoardRecordTrade[]> {
  const root = mkdtempSync(join(tmpdir(), 'svc-world-record-'));
  const cache = openCache(join(root, 'cache.db'));
  const client = new ApiClient({ baseUrl, apiKey });
  try {
    // the history first: the pass's live streams then start from the newest row held, not from the host's clock
    await backfill(client, cache, RECORD_TABLES, {});
    const pass = await new SyncEngine({ client, cache }).runOnce();
    if (pass.errors.length > 0) throw new Error(`the sync pass failed: ${JSON.stringify(pass.errors)}`);
    return exportBoardRecord(cache, { edgeMin: RECORD_EDGE_MIN });
  } finally {
    await client.close();
    cache.close();
    rmSync(root, { recursive: true, force: true });
  }
}

/** DESIGN 5's figure of the record: its positions, how they did, and how far that is from chance at their prices. */
export interface RecordFigure {
  positions: number;
  cityDays: number;
  wins: number;
  /** wins / positions (NaN without one). */
  hitRate: number;
  /** The mean price paid: what the hit rate is if the prices were right. */
  meanPrice: number;
  /** The standard error of the hit rate around the mean price: sqrt(sum q (1 - q)) / n. */
  hitRateSe: number;
  staked: number;
  pnl: number;
  /** The standard error of the P&L around zero: a position at price q has variance stake^2 (1 - q) / q. */
  pnlSe: number;
}

/** Positions, wins, P&L and their standard errors of the record's trades (`export board-record`'s rows). */
export function recordFigure(trades: readonly BoardRecordTrade[]): RecordFigure {
  const n = trades.length;
  const prices = trades.map((t) => t.price);
  return {
    positions: n,
    cityDays: new Set(trades.map((t) => `${t.city_id}|${t.local_date}`)).size,
    wins: trades.filter((t) => t.won).length,
    hitRate: trades.filter((t) => t.won).length / n,
    meanPrice: prices.reduce((s, q) => s + q, 0) / n,
    hitRateSe: Math.sqrt(prices.reduce((s, q) => s + q * (1 - q), 0)) / n,
    staked: n * PAPER_STAKE_USD,
    pnl: trades.reduce((s, t) => s + t.pnl, 0),
    pnlSe: Math.sqrt(prices.reduce((s, q) => s + (PAPER_STAKE_USD ** 2 * (1 - q)) / q, 0)),
  };
}
