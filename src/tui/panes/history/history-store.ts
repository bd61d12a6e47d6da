import {
  type BrowseFilter,
  type BrowseKey,
  type BrowseRow,
  type BrowseTable,
  type Cache,
  topicOf,
} from '../../../cache/index.js';
import type { ChangeHub } from '../../state/change-hub.js';
import { KeysetStore, readInOneStep } from '../../state/keyset-store.js';
import { PaneStore } from '../../state/pane-store.js';
import type { Line } from '../../theme.js';
import { HISTORY_STORE, type SummaryInputs, type SummaryParams } from './history-summaries.js';

/** The list a History table shows: the table, and its filter as the cache reads it (a city's date its market day). */
export interface HistoryList {
  table: BrowseTable;
  rows: BrowseFilter;
}

/**
 * History's store: its table's stretch kept around the window (a new table or filter is a new list, the old one
 * stopped; read again when its table changes), and the summaries (`s`, history-summaries.ts), read when opened.
 */
export class HistoryStore {
  readonly summaries: PaneStore<SummaryParams, Line[], SummaryInputs>;
  readonly rows: KeysetStore<BrowseRow, BrowseKey, HistoryList>;

  constructor(hub: ChangeHub, cache: Cache) {
    this.summaries = new PaneStore(hub, HISTORY_STORE);
    // a table's page is one indexed read, quick at any depth (cache/history): read in one step; its keys are found by
    // their place in the stretch
    this.rows = new KeysetStore(
      hub,
      ({ table }) => [topicOf(table)],
      (_atMs, { table, rows }) =>
        readInOneStep({
          older: (after, limit) => cache.history.older(table, rows, after, limit),
          newer: (before, limit) => cache.history.newer(table, rows, before, limit),
          keyOf: (r) => r.key,
        }),
    );
  }

  stop(): void {
    this.rows.stop();
    this.summaries.stop();
  }
}

export const historyStore = (hub: ChangeHub, cache: Cache) => new HistoryStore(hub, cache);
