import { BOARD_RECORD_TOPICS } from '../../../board/board-record.js';
import type { BoardRow } from '../../../board/board-row.js';
import { edgeBandRecords } from '../../../board/edge-band-record.js';
import { BOARD_TOPICS, type BoardMemo, type BoardReplay, readBoardSteps } from '../../../board/read-board.js';
import type { City } from '../../../contract/cities.js';
import type { SettlementConfig } from '../../../contract/config.js';
import { instantAsk, type PaneInputs, type PaneStoreSpec } from '../../state/pane-store.js';

export interface BoardParams {
  cities: readonly City[];
  atMs: number;
  settlement: SettlementConfig;
  /** Time travel: the day pinned and the book as of the instant (DESIGN 4); live, none. */
  replay: BoardReplay;
  /** `alerts.edge_min`: the board's record a best edge is judged by takes edges from it. */
  edgeMin: number;
  /** The version of the record's tables (the change hub's): the record is read again only when it moves. */
  recordVersion: number;
}

/** What the board is asked with: the panes' inputs and the record's threshold. */
export interface BoardInputs extends PaneInputs {
  edgeMin: number;
}

/**
 * The board's store (state/pane-store.ts): its cities under their rules, as of the minute (now), or, while replaying,
 * as of time travel's instant with its day pinned, each city's next market day beside its own once listed and its day
 * passed; each scope's memo keeps unchanged cities' rows.
 */
export const BOARD_STORE: PaneStoreSpec<BoardParams, BoardRow[], BoardInputs> = {
  topics: BOARD_TOPICS,
  ask({ cities, settlement, minute, nowMs, instant, edgeMin }, hub) {
    const { key, stamp } = instantAsk(instant, minute);
    const { atMs, date } = instant;
    return {
      key: JSON.stringify([cities.map((c) => c.city_id), settlement, key, edgeMin]),
      stamp,
      // the screen shows a city's next market day beside its day once listed (read-board.ts), live and replayed
      params: {
        cities,
        atMs: atMs ?? nowMs,
        settlement,
        edgeMin,
        recordVersion: hub.version(BOARD_RECORD_TOPICS),
        replay: atMs === undefined ? { tomorrow: true } : { date, asOf: atMs, tomorrow: true },
      },
    };
  },
  newRead() {
    const memo: BoardMemo = new Map();
    // the board's own read in steps (about a millisecond a city on a 30-day cache): a refresh never holds a key for
    // all 13 of them
    return function* (cache, p) {
      const rows = yield* readBoardSteps(cache, p.cities, p.atMs, p.settlement, memo, p.replay);
      yield;
      // beside each best edge, what edges like it have done in this cache (DESIGN 4 "an edge's own record"): the
      // record is read again only when its tables changed (the hub's version), each row a look-up
      const recordOf = edgeBandRecords(
        cache,
        { edgeMin: p.edgeMin, settlement: p.settlement },
        { version: p.recordVersion },
      );
      return rows.map((r) => (r.best ? { ...r, bestRecord: recordOf(r.best.edge, r.best.venue).text } : r));
    };
  },
};
