import { useMemo } from 'react';
import type { FeedKey, Signal } from '../../../cache/feed-sources.js';
import { LineView } from '../../components/line-view.js';
import { useCacheVersion } from '../../hooks/use-cache-version.js';
import { useKeypress } from '../../hooks/use-keypress.js';
import { type KeysetSource, useKeysetWindow } from '../../hooks/use-keyset-window.js';
import { listMove } from '../../keys.js';
import type { CacheTopic } from '../../state/cache-topics.js';
import { PRIORITY } from '../../state/keypress-context.js';
import { useDeps, useUiActions } from '../../state/monitor-context.js';
import { type Line, line, seg, selectLine } from '../../theme.js';
import { moveWindow } from '../move-window.js';
import { signalColumns, signalHeader, signalLine } from './signal-columns.js';
import { signalDetail } from './signal-detail.js';

const FEED_TOPICS: readonly CacheTopic[] = [
  'insurance-picks',
  'edge-trades',
  'webhook-events',
  'fusion-locks',
  'no24',
  'yescore',
  'svc-max-picks',
  'cities',
];

/** Pane 1: every signal, newest first, one row each; Enter opens the whole story. */
export function SignalsPane({ width, height }: { width: number; height: number }) {
  const { cache } = useDeps();
  const actions = useUiActions();
  const version = useCacheVersion(FEED_TOPICS);
  const source = useMemo<KeysetSource<Signal, FeedKey>>(
    () => ({
      older: (after, limit) => cache.panes.feed.older(after, limit),
      newer: (before, limit) => cache.panes.feed.newer(before, limit),
      keyOf: (s) => ({ at: s.at, rank: s.rank, key: s.key }),
    }),
    [cache],
  );
  const listHeight = Math.max(1, height - 1);
  const list = useKeysetWindow(source, listHeight, version);

  useKeypress(PRIORITY.pane, (input, key) => {
    const move = listMove(input, key);
    if (move) return moveWindow(list, move);
    if (key.return && list.selectedRow) {
      const s = list.selectedRow;
      actions.openOverlay({
        kind: 'detail',
        title: `Signal ${s.kind} ${s.city_id} ${s.market_date}`,
        lines: signalDetail(s, cache.panes.feed.payloads(s), width),
      });
      return true;
    }
    return false;
  });

  const columns = signalColumns(width);
  const lines: Line[] = [signalHeader(columns)];
  if (list.rows.length === 0) {
    lines.push(
      line(seg('  No signals cached yet: picks, kills, edge trades, strategy records and locks appear here.', 'muted')),
    );
  }
  list.rows.forEach((s, i) => {
    lines.push(selectLine(signalLine(s, columns), i === list.selected));
  });
  return <LineView lines={lines} width={width} height={height} />;
}
