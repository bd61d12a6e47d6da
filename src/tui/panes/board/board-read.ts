import type { BoardRow } from '../../../board/board-row.js';
import { type BoardMemo, readBoardBook, readBoardRow } from '../../../board/read-board.js';
import type { Cache } from '../../../cache/index.js';
import type { City } from '../../../contract/cities.js';
import type { SettlementConfig } from '../../../contract/config.js';
import { type CacheTopic, POSITION_TOPICS } from '../../state/cache-topics.js';
import type { ChangeHub } from '../../state/change-hub.js';
import { type KeptAsk, KeptRead } from '../../state/kept-read.js';
import { keptReadOf } from '../../state/kept-reads.js';
import type { SlicedRead } from '../../state/sliced-read.js';

/** Everything a row is worked out from. */
const BOARD_TOPICS: readonly CacheTopic[] = [
  'forecasts',
  'current',
  ...POSITION_TOPICS,
  'alerts',
  'historical/mkta_buckets_history',
  'historical/mktb_buckets_history',
  'historical/metar_observations_history',
];

export interface BoardParams {
  cities: readonly City[];
  atMs: number;
  settlement: SettlementConfig;
}

/**
 * The board's rows, unsorted, a city a step: the reads every row shares first (board/read-board.ts), then one city's
 * market day at a time (about a millisecond each on a 30-day cache), so a refresh never holds a key for 13 of them.
 */
function* boardRows(cache: Cache, p: BoardParams, memo: BoardMemo): SlicedRead<BoardRow[]> {
  const shared = readBoardBook(cache, p.atMs);
  yield;
  const rows: BoardRow[] = [];
  for (const city of p.cities) {
    rows.push(readBoardRow(cache, city, p.atMs, shared, p.settlement, memo));
    yield;
  }
  return rows;
}

/** What the board asks its kept read for: its cities under their rules, as of the minute `minute`. */
export const boardAsk = (
  cities: readonly City[],
  settlement: SettlementConfig,
  minute: number,
  nowMs: number,
): KeptAsk<BoardParams> => ({
  key: JSON.stringify([cities.map((c) => c.city_id), settlement]),
  stamp: String(minute),
  params: { cities, atMs: nowMs, settlement },
});

/** The board of a running monitor, kept between visits (state/kept-read.ts); its memo keeps unchanged cities' rows. */
export function boardRead(hub: ChangeHub): KeptRead<BoardParams, BoardRow[]> {
  return keptReadOf(hub, 'board', () => {
    const memo: BoardMemo = new Map();
    return new KeptRead(hub, BOARD_TOPICS, (cache, p: BoardParams) => boardRows(cache, p, memo));
  });
}
