import type { BoardRow } from '../../../board/board-row.js';
import { MARKET_DAY_TOPICS } from '../../../board/market-day.js';
import { type BoardMemo, type BoardReplay, readBoardBook, readBoardRow } from '../../../board/read-board.js';
import { type Cache, type CacheTopic, POSITION_TOPICS } from '../../../cache/index.js';
import type { City } from '../../../contract/cities.js';
import type { SettlementConfig } from '../../../contract/config.js';
import type { ChangeHub } from '../../state/change-hub.js';
import { type KeptAsk, KeptRead } from '../../state/kept-read.js';
import { instantAsk, keptReadOf, laneOf, type ReadInstant } from '../../state/kept-reads.js';
import type { SlicedRead } from '../../state/sliced-read.js';

/** Everything a row is worked out from. */
/** What the board reads: each city's market day, the open positions and the unacknowledged kills. */
const BOARD_TOPICS: readonly CacheTopic[] = [...MARKET_DAY_TOPICS, ...POSITION_TOPICS, 'alerts'];

export interface BoardParams {
  cities: readonly City[];
  atMs: number;
  settlement: SettlementConfig;
  /** Time travel: the day pinned and the book as of the instant (DESIGN 4); live, none. */
  replay: BoardReplay;
}

/**
 * The board's rows, unsorted, a city a step: the reads every row shares first (board/read-board.ts), then one city's
 * market day at a time (about a millisecond each on a 30-day cache), so a refresh never holds a key for 13 of them.
 */
function* boardRows(cache: Cache, p: BoardParams, memo: BoardMemo): SlicedRead<BoardRow[]> {
  const shared = readBoardBook(cache, p.atMs, p.replay);
  yield;
  const rows: BoardRow[] = [];
  for (const city of p.cities) {
    rows.push(readBoardRow(cache, city, p.atMs, shared, p.settlement, memo, p.replay.date));
    yield;
  }
  return rows;
}

/**
 * What the board asks its kept read for: its cities under their rules, as of the minute `minute` (now: `nowMs`), or,
 * while replaying, as of time travel's instant with its day pinned.
 */
export function boardAsk(
  cities: readonly City[],
  settlement: SettlementConfig,
  minute: number,
  nowMs: number,
  instant: ReadInstant,
): KeptAsk<BoardParams> {
  const { key, stamp } = instantAsk(instant, minute);
  const { atMs, date } = instant;
  return {
    key: JSON.stringify([cities.map((c) => c.city_id), settlement, key]),
    stamp,
    params: { cities, atMs: atMs ?? nowMs, settlement, replay: atMs === undefined ? {} : { date, asOf: atMs } },
  };
}

/**
 * The board of a running monitor, kept between visits (state/kept-read.ts), live or replaying (kept apart); its memo
 * keeps unchanged cities' rows.
 */
export function boardRead(hub: ChangeHub, instant: ReadInstant): KeptRead<BoardParams, BoardRow[]> {
  return keptReadOf(hub, laneOf('board', instant), () => {
    const memo: BoardMemo = new Map();
    return new KeptRead(hub, BOARD_TOPICS, (cache, p: BoardParams) => boardRows(cache, p, memo));
  });
}
