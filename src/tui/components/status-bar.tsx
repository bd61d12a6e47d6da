import type { City } from '../../contract/cities.js';
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

const CONNECTION: Record<MonitorStatus['connection']['state'], string> = {
  ok: '',
  'auth-rejected': '!! KEY REJECTED',
  unreachable: '!! SERVICE UNREACHABLE',
  offline: 'no network (offline)',
};

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
  const connection = CONNECTION[status.connection.state];
  if (connection) {
    const message = status.connection.message ? `: ${status.connection.message}` : '';
    groups.push([seg(`${connection}${message}`, status.connection.state === 'offline' ? 'muted' : 'bad', true)]);
  }
  const streams: Line = [seg('sync', 'muted')];
  for (const h of health) {
    const when = h.ageMs === null ? '-' : age(h.ageMs);
    streams.push(seg(` ${STREAM_SHORT[h.stream] ?? h.stream} ${when}${HEALTH_MARK[h.health]}`, HEALTH_TONE[h.health]));
  }
  groups.push(streams);
  groups.push(listenerGroup(status.listener));
  const selected = cities.find((c) => c.city_id === city);
  groups.push([
    seg(utcClock(nowMs), 'accent'),
    seg(selected ? ` ${selected.city_id} ${localDayClock(nowMs, selected.tz)}` : '', 'accent'),
  ]);
  if (notice) groups.push([seg(notice, 'warn', true)]);
  return <LineView lines={flow(groups, width, height)} width={width} height={height} />;
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
