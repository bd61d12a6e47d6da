import { useMemo, useRef } from 'react';
import { liveConditions } from '../../../alerts/live-conditions.js';
import { LineView } from '../../components/line-view.js';
import { cell, wrap } from '../../format/text.js';
import { utcStamp } from '../../format/time.js';
import { useAlertCounts } from '../../hooks/use-alert-counts.js';
import { useCacheVersion } from '../../hooks/use-cache-version.js';
import { useKeypress } from '../../hooks/use-keypress.js';
import { useKeysetWindow } from '../../hooks/use-keyset-window.js';
import { useMonitorStatus } from '../../hooks/use-monitor-status.js';
import { useNow } from '../../hooks/use-now.js';
import { useStreamHealth } from '../../hooks/use-stream-health.js';
import { listMove } from '../../keys.js';
import { PRIORITY } from '../../state/keypress-context.js';
import { useDeps, useUiActions } from '../../state/monitor-context.js';
import { type Line, line, seg, selectLine } from '../../theme.js';
import { moveWindow } from '../move-window.js';
import { type AlertItem, alertSource, liveItems } from './alert-items.js';

/** Pane 3: kills first and loud, then everything else that needs a look; `a` acknowledges. */
export function AlertsPane({ width, height }: { width: number; height: number }) {
  const { cache, now } = useDeps();
  const actions = useUiActions();
  const status = useMonitorStatus();
  const nowMs = useNow();
  const alertsVersion = useCacheVersion(['alerts']);
  const live = liveItems(liveConditions(status, useStreamHealth(nowMs)));
  // the source stays the same object (a new one would send the window back to the top); it reads the latest
  // conditions through a ref, and their text joins the version so a change re-reads the window
  const liveRef = useRef(live);
  liveRef.current = live;
  const source = useMemo(() => alertSource(cache, () => liveRef.current), [cache]);
  const liveSignature = [...live.connection, ...live.sync].map((c) => `${c.marker}${c.message}`).join('|');
  const counts = useAlertCounts();
  const list = useKeysetWindow(source, Math.max(1, height - 1), `${alertsVersion}|${liveSignature}`);

  useKeypress(PRIORITY.pane, (input, key) => {
    const move = listMove(input, key);
    if (move) return moveWindow(list, move);
    const item = list.selectedRow;
    if (input === 'a') {
      if (!item) actions.notice('no alert selected');
      else if (!item.stored) actions.notice('a live condition clears itself once it is fixed');
      else if (item.stored.acknowledged_at) actions.notice('already acknowledged');
      else cache.acknowledgeAlert(item.stored.id, now().toISOString());
      return true;
    }
    if (key.return && item) {
      actions.openOverlay({ kind: 'detail', title: `Alert ${item.marker.trim()}`, lines: alertDetail(item, width) });
      return true;
    }
    return false;
  });

  const header = line(
    seg(`${counts.unacknowledged} unacknowledged`, counts.unacknowledged > 0 ? 'warn' : 'good', true),
    counts.kills > 0 ? seg(`  !! ${counts.kills} KILL${counts.kills > 1 ? 'S' : ''} to act on`, 'alarm', true) : '',
    seg('   a acknowledge · Enter detail', 'muted'),
  );
  const lines: Line[] = [header];
  if (list.rows.length === 0) lines.push(line(seg('  Nothing to report.', 'good')));
  list.rows.forEach((item, i) => {
    lines.push(selectLine(alertLine(item), i === list.selected));
  });
  return <LineView lines={lines} width={width} height={height} />;
}

function alertLine(item: AlertItem): Line {
  return [
    seg(cell(item.marker, 13), item.tone, true),
    seg(cell(item.when ? utcStamp(Date.parse(item.when)) : 'now', 13), 'muted'),
    seg(item.message, item.stored?.acknowledged_at ? 'muted' : undefined),
  ];
}

function alertDetail(item: AlertItem, width: number): Line[] {
  const out: Line[] = [line(seg(item.marker, item.tone, true))];
  if (item.stored) {
    const a = item.stored;
    out.push(
      line(seg('raised   ', 'muted'), a.created_at),
      line(seg('kind     ', 'muted'), `${a.kind} (${a.severity})`),
    );
    if (a.city_id) out.push(line(seg('city     ', 'muted'), a.city_id));
    if (a.ref) out.push(line(seg('ref      ', 'muted'), a.ref));
    out.push(
      line(seg('status   ', 'muted'), a.acknowledged_at ? `acknowledged ${a.acknowledged_at}` : 'unacknowledged (a)'),
    );
  } else out.push(line(seg('a live condition: it clears itself once fixed', 'muted')));
  out.push([]);
  for (const text of wrap(item.message, Math.max(20, width - 2))) out.push(line(text));
  return out;
}
