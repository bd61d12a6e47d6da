import type { City } from '../../../contract/cities.js';
import { LineView } from '../../components/line-view.js';
import { TextInput } from '../../components/text-input.js';
import { hintOf, KEYS } from '../../keys.js';
import { useReplayInstant } from '../../state/replay-context.js';
import { type Line, line, seg, selectLine } from '../../theme.js';
import { historyHeader, historyRow } from './history-columns.js';
import { describeFilter, filterText } from './history-filter.js';
import { useHistoryInput } from './use-history-input.js';
import { useHistoryState } from './use-history-state.js';

const K = KEYS.history;
const ROWS_HINT = [
  `${K.previousTable.label}/${K.nextTable.label} ${K.nextTable.hint}`,
  hintOf(K.filter),
  hintOf(K.summaries),
  hintOf(KEYS.lists.detail, 'row'),
].join(' · ');
/** Replaying, ← → step time (DESIGN 3): the tables turn with [ ] only. */
const REPLAY_ROWS_HINT = ['[ ] table', hintOf(K.filter), hintOf(K.summaries), hintOf(KEYS.lists.detail, 'row')].join(
  ' · ',
);
const SUMMARY_HINT = `${K.summaries.label}: back to rows`;

/** Pane 6: any cached table, filtered by city and dates, a window at a time; `s` for the summaries. */
export function HistoryPane({ width, height, cities }: { width: number; height: number; cities: readonly City[] }) {
  const state = useHistoryState(cities, width, height);
  useHistoryInput(state, cities);
  const { table, filter, list, listHeight, summary, summaryText, summaryOffset, editing, error } = state;
  // replaying, ← → step time: the tables turn with [ ]; and History is the whole cache, not as of the instant
  const replaying = useReplayInstant().atMs !== undefined;

  const head: Line = line(
    seg('◂ ', 'muted'),
    seg(table, 'accent', true),
    seg(' ▸', 'muted'),
    `  ${describeFilter(filter)}`,
    // before the hints, so a narrow screen cuts the hints first
    replaying ? seg('  the whole cache, not as of the replay', 'warn') : '',
    seg(`   ${summary ? SUMMARY_HINT : replaying ? REPLAY_ROWS_HINT : ROWS_HINT}`, 'muted'),
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
      onCancel={state.cancelFilter}
      onSubmit={state.applyFilter}
    />
  ) : null;
  return (
    <>
      <LineView lines={lines} width={width} height={editing ? height - 1 : height} />
      {prompt}
    </>
  );
}
