import type { BoardRow } from '../../../board/board-row.js';
import { BOARD_TOPICS, type BoardMemo, type BoardReplay, readBoardSteps } from '../../../board/read-board.js';
import type { City } from '../../../contract/cities.js';
import type { SettlementConfig } from '../../../contract/config.js';
import type { ChangeHub } from '../../state/change-hub.js';
import { type KeptAsk, KeptRead } from '../../state/kept-read.js';
import { instantAsk, keptReadOf, laneOf, type ReadInstant } from '../../state/kept-reads.js';

export interface BoardParams {
  cities: readonly City[];
  atMs: number;
  settlement: SettlementConfig;
  /** Time travel: the day pinned and the book as of the instant (DESIGN 4); live, none. */
  replay: BoardReplay;
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
    // the board's own read in steps (about a millisecond a city on a 30-day cache): a refresh never holds a key for
    // all 13 of them
    return new KeptRead(hub, BOARD_TOPICS, (cache, p: BoardParams) =>
      readBoardSteps(cache, p.cities, p.atMs, p.settlement, memo, p.replay),
    );
  });
}
