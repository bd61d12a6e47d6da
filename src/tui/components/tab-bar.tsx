import { memo } from 'react';
import { useAlertCounts } from '../hooks/use-alert-counts.js';
import { PANE_TITLES, PANES } from '../hooks/use-monitor-state.js';
import { hintOf, KEYS } from '../keys.js';
import { useUiState } from '../state/monitor-context.js';
import { type Line, seg } from '../theme.js';
import { LineText } from './line-text.js';

/** Panes by number, the current one bracketed; the unacknowledged alert count is always here. */
export const TabBar = memo(function TabBar({ width }: { width: number }) {
  const { pane } = useUiState();
  const counts = useAlertCounts();
  const compact = width < 80;
  const l: Line = [];
  PANES.forEach((id, i) => {
    const title = compact ? PANE_TITLES[id].slice(0, 3) : PANE_TITLES[id];
    let text = `${i + 1} ${title}`;
    if (id === 'alerts' && counts.unacknowledged > 0)
      text += compact ? `(${counts.unacknowledged})` : ` (${counts.unacknowledged})`;
    const active = id === pane;
    l.push(active ? { text: `[${text}]`, tone: 'accent', bold: true, inverse: true } : seg(` ${text} `));
    l.push(seg(' '));
  });
  if (counts.kills > 0) l.push(seg(compact ? '!!KILL ' : `!! KILL x${counts.kills} `, 'alarm', true));
  if (!compact) l.push(seg(`  ${hintOf(KEYS.everywhere.help)}  ${hintOf(KEYS.everywhere.quit)}`, 'muted'));
  return <LineText line={l} width={width} />;
});
