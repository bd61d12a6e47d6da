import { useEffect, useMemo, useState } from 'react';
import { BROWSE_TABLES, type BrowseFilter, type BrowseRow, type BrowseTable } from '../../../cache/index.js';
import type { City } from '../../../contract/cities.js';
import type { KeysetWindow } from '../../hooks/use-keyset-window.js';
import { usePaneInputs } from '../../hooks/use-pane-inputs.js';
import { usePaneRead } from '../../hooks/use-pane-read.js';
import { scrollStep } from '../../hooks/use-scroll-state.js';
import { useStripWindow } from '../../hooks/use-strip-window.js';
import type { ListMove } from '../../keys.js';
import { useDeps, useUiActions, useUiState } from '../../state/monitor-context.js';
import { LIVE } from '../../state/pane-store.js';
import type { Line } from '../../theme.js';
import { usePaneStore } from '../pane-stores.js';
import { marketDayFilter, parseHistoryFilter } from './history-filter.js';
import { historyStore } from './history-store.js';

export interface HistoryState {
  table: BrowseTable;
  filter: BrowseFilter;
  /** The rows of `table` that match `filter`, a window `listHeight` rows tall (none while the summaries show). */
  list: KeysetWindow<BrowseRow>;
  listHeight: number;
  /** `s`: the summaries instead of the rows, and how far they are scrolled. */
  summary: boolean;
  summaryText: Line[];
  summaryOffset: number;
  /** The filter prompt is open. */
  editing: boolean;
  /** Why the last filter typed was refused. */
  error: string | null;
  stepTable(by: 1 | -1): void;
  toggleSummary(): void;
  scrollSummary(move: ListMove): void;
  editFilter(): void;
  cancelFilter(): void;
  applyFilter(text: string): void;
}

export function useHistoryState(cities: readonly City[], width: number, height: number): HistoryState {
  const { edgeMin } = useDeps();
  const actions = useUiActions();
  const { historyTable: table, historyFilter: filter } = useUiState();
  const [summary, setSummary] = useState(false);
  const [editing, setEditing] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [summaryOffset, setSummaryOffset] = useState(0);

  // a date with a city is that city's market day (history-filter.ts); the table's stretch is kept in the pane's store
  // between visits, one for the table and filter shown
  const store = usePaneStore(historyStore);
  const rows = useMemo(() => marketDayFilter(filter, table, cities), [filter, table, cities]);
  const strip = store.rows.scope(LIVE, { table, rows });
  const listHeight = Math.max(1, height - 3);
  // half a page's margin: a page is read ahead in the background, one a page (a page of a million-row table costs
  // what it did when each key read its own)
  const shown = summary ? 0 : listHeight;
  const list = useStripWindow(strip, shown, Math.ceil(shown / 2));
  // read when opened (`s`), kept while they show, in the pane's store (history-summaries.ts)
  const inputs = usePaneInputs(cities, width, height);
  const { summaries } = store;
  const summaryText = usePaneRead(summaries, { ...inputs, filter, open: summary, edgeMin });
  // the summaries close when the pane is left (their state is the pane's): the settled days they read go with them
  useEffect(() => () => summaries.reset(), [summaries]);

  return {
    table,
    filter,
    list,
    listHeight,
    summary,
    summaryText,
    summaryOffset,
    editing,
    error,
    stepTable(by) {
      const i = BROWSE_TABLES.indexOf(table);
      actions.setHistoryTable(BROWSE_TABLES[(i + by + BROWSE_TABLES.length) % BROWSE_TABLES.length] as BrowseTable);
    },
    toggleSummary() {
      setSummary((s) => !s);
      setSummaryOffset(0);
    },
    scrollSummary(move) {
      // Home steps back by the offset itself
      const by = scrollStep(move, listHeight) ?? -summaryOffset;
      setSummaryOffset((o) => Math.max(0, Math.min(Math.max(0, summaryText.length - listHeight), o + by)));
    },
    editFilter: () => setEditing(true),
    cancelFilter: () => setEditing(false),
    applyFilter(text) {
      const parsed = parseHistoryFilter(
        text,
        cities.map((c) => c.city_id),
      );
      setEditing(false);
      if ('error' in parsed) setError(parsed.error);
      else {
        setError(null);
        actions.setHistoryFilter(parsed.filter);
      }
    },
  };
}
