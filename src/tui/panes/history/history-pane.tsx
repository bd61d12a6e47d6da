import { useMemo, useState } from 'react';
import { BROWSE_TABLES, type BrowseKey, type BrowseRow, type BrowseTable } from '../../../cache/history-reads.js';
import type { City } from '../../../contract/cities.js';
import { LineView } from '../../components/line-view.js';
import { TextInput } from '../../components/text-input.js';
import { useCacheVersion } from '../../hooks/use-cache-version.js';
import { useKeypress } from '../../hooks/use-keypress.js';
import { type KeysetSource, useKeysetWindow } from '../../hooks/use-keyset-window.js';
import { listMove } from '../../keys.js';
import { type CacheTopic, topicOf } from '../../state/cache-topics.js';
import { PRIORITY } from '../../state/keypress-context.js';
import { useDeps, useUiActions, useUiState } from '../../state/monitor-context.js';
import { type Line, line, seg, selectLine } from '../../theme.js';
import { moveWindow } from '../move-window.js';
import { historyHeader, historyRow } from './history-columns.js';
import { describeFilter, filterText, parseHistoryFilter } from './history-filter.js';
import { summaryLines } from './history-summary-lines.js';

/** What the summaries are computed from. */
const SUMMARY_TOPICS: readonly CacheTopic[] = [
  'no24',
  'yescore',
  'svc-max-picks',
  'fusion-locks',
  'historical/forecast_accuracy_daily',
];

/** Pane 5: any cached table, filtered by city and dates, a window at a time; `s` for the summaries. */
export function HistoryPane({ width, height, cities }: { width: number; height: number; cities: readonly City[] }) {
  const { cache } = useDeps();
  const actions = useUiActions();
  const { historyTable: table, historyFilter: filter } = useUiState();
  const [summary, setSummary] = useState(false);
  const [editing, setEditing] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const version = useCacheVersion([topicOf(table)]);
  const summaryVersion = useCacheVersion(SUMMARY_TOPICS);

  const source = useMemo<KeysetSource<BrowseRow, BrowseKey>>(
    () => ({
      older: (after, limit) => cache.panes.history.older(table, filter, after, limit),
      newer: (before, limit) => cache.panes.history.newer(table, filter, before, limit),
      keyOf: (r) => r.key,
    }),
    [cache, table, filter],
  );
  const listHeight = Math.max(1, height - 3);
  const list = useKeysetWindow(source, summary ? 0 : listHeight, version);
  // biome-ignore lint/correctness/useExhaustiveDependencies: version is the cache's change counter
  const summaryText = useMemo(
    () => (summary ? summaryLines(cache.panes.summary(filter)) : []),
    [cache, filter, summary, summaryVersion],
  );
  const [summaryOffset, setSummaryOffset] = useState(0);

  useKeypress(PRIORITY.pane, (input, key) => {
    const step = key.rightArrow || input === ']' ? 1 : key.leftArrow || input === '[' ? -1 : 0;
    if (step !== 0) {
      const i = BROWSE_TABLES.indexOf(table);
      actions.setHistoryTable(BROWSE_TABLES[(i + step + BROWSE_TABLES.length) % BROWSE_TABLES.length] as BrowseTable);
      return true;
    }
    if (input === '/') {
      setEditing(true);
      return true;
    }
    if (input === 's') {
      setSummary((s) => !s);
      setSummaryOffset(0);
      return true;
    }
    const move = listMove(input, key);
    if (move && summary) {
      const by =
        move === 'down'
          ? 1
          : move === 'up'
            ? -1
            : move === 'pageDown'
              ? listHeight
              : move === 'pageUp'
                ? -listHeight
                : -summaryOffset;
      setSummaryOffset((o) => Math.max(0, Math.min(Math.max(0, summaryText.length - listHeight), o + by)));
      return true;
    }
    if (move) return moveWindow(list, move);
    if (key.return && list.selectedRow && !summary) {
      const json = JSON.stringify(list.selectedRow.row, null, 2).split('\n');
      actions.openOverlay({ kind: 'detail', title: `${table} row`, lines: json.map((t) => line(t)) });
      return true;
    }
    return false;
  });

  const head: Line = line(
    seg('◂ ', 'muted'),
    seg(table, 'accent', true),
    seg(' ▸', 'muted'),
    `  ${describeFilter(filter)}`,
    seg(summary ? '   s: back to rows' : '   ←/→ table · / filter · s summaries · Enter row', 'muted'),
  );
  const lines: Line[] = [head];
  if (error) lines.push(line(seg(`  ${error}`, 'bad')));
  if (summary) {
    lines.push([]);
    lines.push(...summaryText.slice(summaryOffset, summaryOffset + listHeight));
  } else {
    lines.push(line(seg(`  ${historyHeader(table)}`, 'muted', true)));
    if (list.rows.length === 0)
      lines.push(
        line(seg('  No rows cached here (historical tables fill with `svc-monitor sync --backfill`).', 'muted')),
      );
    list.rows.forEach((r, i) => {
      lines.push(selectLine([seg(historyRow(table, r.row))], i === list.selected));
    });
  }
  const prompt = editing ? (
    <TextInput
      prompt="filter> "
      initial={filterText(filter)}
      width={width}
      onCancel={() => setEditing(false)}
      onSubmit={(text) => {
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
      }}
    />
  ) : null;
  return (
    <>
      <LineView lines={lines} width={width} height={editing ? height - 1 : height} />
      {prompt}
    </>
  );
}
