import type { City } from '../../contract/cities.js';
import { LIVE_HISTORY_TABLES } from '../../domain/streams.js';
import { HEALTH_MARK, HEALTH_TONE, STREAM_SHORT } from '../format/health-marks.js';
import { age, localDayClock, utcClock } from '../format/time.js';
import { useMonitorStatus } from '../hooks/use-monitor-status.js';
import { useNow } from '../hooks/use-now.js';
import { useStreamHealth } from '../hooks/use-stream-health.js';
import { useUiState } from '../state/monitor-context.js';
import { type Line, type Segment, seg } from '../theme.js';
import type { MonitorStatus } from '../types.js';
import { LineView } from './line-view.js';

const MODE: Record<MonitorStatus['mode'], Segment> = {
  live: { text: ' LIVE ', tone: 'good', bold: true, inverse: true },
  demo: { text: ' DEMO ', tone: 'warn', bold: true, inverse: true },
  offline: { text: ' OFFLINE ', tone: 'muted', bold: true, inverse: true },
};

/** The connection's word on the status bar, and its tone. */
const CONNECTION: Record<MonitorStatus['connection']['state'], Segment> = {
  connecting: { text: 'connecting…', tone: 'warn' },
  ok: { text: 'ok', tone: 'good' },
  failing: { text: '!  FAILING', tone: 'warn', bold: true },
  'auth-rejected': { text: '!! KEY REJECTED', tone: 'bad', bold: true },
  unreachable: { text: '!! SERVICE UNREACHABLE', tone: 'bad', bold: true },
  offline: { text: 'no network (offline)', tone: 'muted', bold: true },
};

/** The connection's state, what went wrong, and when the service last answered a pass well. */
function connectionGroups(c: MonitorStatus['connection']): Line[] {
  const word = CONNECTION[c.state];
  const message = c.message ? `: ${c.message}` : '';
  const state: Line = [{ ...word, text: `${word.text}${message}` }];
  if (c.state === 'offline' || c.state === 'connecting') return [state];
  const answered = c.lastGoodAt === undefined ? null : Date.parse(c.lastGoodAt);
  if (c.state === 'ok') return [[...state, seg(answered === null ? '' : ` ${utcClock(answered)}`, 'muted')]];
  // the time before the trouble: a long error is cut at the width, the time must stay in sight
  return [[seg(answered === null ? 'no good answer yet' : `last good answer ${utcClock(answered)}`, 'muted')], state];
}

/**
 * Mode and host, each stream's last good sync (marked `*` stale, `!` failing), the listener, the UTC clock and the
 * selected city's local time. Groups flow onto `height` lines and are cut at the width.
 */
export function StatusBar({ width, height, cities }: { width: number; height: number; cities: readonly City[] }) {
  const { city, notice } = useUiState();
  const status = useMonitorStatus();
  const nowMs = useNow();
  const health = useStreamHealth(nowMs);

  const groups: Line[] = [];
  groups.push([MODE[status.mode], seg(` ${status.host ?? 'no service'}`, 'muted')]);
  groups.push(...connectionGroups(status.connection));
  const fill = fillGroup(status.fill);
  if (fill) groups.push(fill);
  // the live history streams in a group of their own, last: where the bar is short of room, the connection, the
  // listener, the clocks and a notice come first
  const streams: Line = [seg('sync', 'muted')];
  const history: Line = [seg('hist', 'muted')];
  for (const h of health) {
    const when = h.ageMs === null ? '-' : age(h.ageMs);
    const into = h.stream in LIVE_HISTORY_TABLES ? history : streams;
    into.push(seg(` ${STREAM_SHORT[h.stream] ?? h.stream} ${when}${HEALTH_MARK[h.health]}`, HEALTH_TONE[h.health]));
  }
  groups.push(streams);
  groups.push(listenerGroup(status.listener));
  const selected = cities.find((c) => c.city_id === city);
  groups.push([
    seg(utcClock(nowMs), 'accent'),
    seg(selected ? ` ${selected.city_id} ${localDayClock(nowMs, selected.tz)}` : '', 'accent'),
  ]);
  if (notice) groups.push([seg(notice, 'warn', true)]);
  if (history.length > 1) groups.push(history);
  return <LineView lines={flow(groups, width, height)} width={width} height={height} />;
}

/** The demo's history fill while it runs (or why it stopped); nothing once it is done. */
function fillGroup(f: MonitorStatus['fill']): Line | null {
  if (!f || f.state === 'done') return null;
  const rows = f.rows.toLocaleString('en-US');
  if (f.state === 'failed') return [seg(`! history fill stopped at ${rows} rows: ${f.message ?? ''}`, 'warn', true)];
  const table = f.table ? ` ${f.table.replace(/_history$/, '')}` : '';
  return [seg(`filling 30 days ${f.tablesDone}/${f.tables}${table} ${rows} rows`, 'warn')];
}

function listenerGroup(l: MonitorStatus['listener']): Line {
  if (l.state === 'off') return [seg('hook off', 'muted')];
  const where = l.url ? ` ${l.url.replace(/^https?:\/\//, '').replace(/\/$/, '')}` : '';
  const counts = seg(` ok ${l.accepted} dup ${l.duplicates} rej ${l.rejected}`, l.rejected > 0 ? 'warn' : 'muted');
  if (l.state === 'down') return [seg(`!! hook DOWN${where}`, 'bad', true), counts];
  return [seg(`hook${where}`, 'good'), counts];
}

/** Places groups left to right with a separator, starting a new line when one does not fit. */
function flow(groups: Line[], width: number, height: number): Line[] {
  const lines: Line[] = [[]];
  let used = 0;
  for (const g of groups) {
    const size = g.reduce((n, s) => n + s.text.length, 0);
    const current = lines[lines.length - 1] as Line;
    if (used > 0 && used + 3 + size > width && lines.length < height) {
      lines.push([...g]);
      used = size;
    } else {
      if (used > 0) current.push(seg(' · ', 'muted'));
      current.push(...g);
      used += (used > 0 ? 3 : 0) + size;
    }
  }
  return lines;
}
