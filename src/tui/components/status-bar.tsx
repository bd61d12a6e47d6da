import type { StreamHealth } from '../../alerts/stream-health.js';
import type { City } from '../../contract/cities.js';
import { SHOWN_CLOCK_OFFSET_MS, signedDuration } from '../../domain/clock-offset.js';
import { LIVE_HISTORY_TABLES } from '../../domain/streams.js';
import { HEALTH_MARK, HEALTH_TONE, STREAM_SHORT } from '../format/health-marks.js';
import { layoutStatus, type StatusGroup } from '../format/status-layout.js';
import { age, localDayClock, utcClock } from '../format/time.js';
import { useListenerRefusing } from '../hooks/use-listener-refusing.js';
import { useMonitorStatus } from '../hooks/use-monitor-status.js';
import { useNow } from '../hooks/use-now.js';
import { useStreamHealth } from '../hooks/use-stream-health.js';
import { useDeps, useUiState } from '../state/monitor-context.js';
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

/**
 * What goes first when the bar is short of room (lowest first): the live history streams, then the other streams,
 * the fill's progress, the listener, the clocks; a notice (the answer to the key just pressed), when the service last
 * answered well (beside a failing connection, the time before the trouble), the connection's state and the mode stay
 * longest.
 */
const RANK = { hist: 1, sync: 2, fill: 3, listener: 4, clocks: 5, notice: 6, lastGood: 7, connection: 8, mode: 9 };

/** The connection's state, what went wrong, and when the service last answered a pass well. */
function connectionGroups(c: MonitorStatus['connection']): StatusGroup[] {
  const word = CONNECTION[c.state];
  const message = c.message ? `: ${c.message}` : '';
  const state: Line = [{ ...word, text: `${word.text}${message}` }];
  if (c.state === 'offline' || c.state === 'connecting') return [{ line: state, rank: RANK.connection }];
  const answered = c.lastGoodAt === undefined ? null : Date.parse(c.lastGoodAt);
  if (c.state === 'ok')
    return [
      { line: [...state, seg(answered === null ? '' : ` ${utcClock(answered)}`, 'muted')], rank: RANK.connection },
    ];
  // the time before the trouble: a long error is cut at the width, the time must stay in sight
  const last = seg(answered === null ? 'no good answer yet' : `last good answer ${utcClock(answered)}`, 'muted');
  return [
    { line: [last], rank: RANK.lastGood },
    { line: state, rank: RANK.connection },
  ];
}

/**
 * Mode and host, each stream's last good sync (marked `*` stale, `!` failing), the listener, the UTC clock and the
 * selected city's local time, a notice: the groups of the status bar, in their order on screen.
 */
export function useStatusGroups(cities: readonly City[]): StatusGroup[] {
  const { city, notice } = useUiState();
  const { clockOffsetMs } = useDeps();
  const status = useMonitorStatus();
  const nowMs = useNow();
  const health = useStreamHealth(nowMs);
  const refusing = useListenerRefusing();

  const groups: StatusGroup[] = [];
  groups.push({ line: [MODE[status.mode], seg(` ${status.host ?? 'no service'}`, 'muted')], rank: RANK.mode });
  groups.push(...connectionGroups(status.connection));
  // offline: how old the cache is, the newest good sync of any stream (no stream polls, so none is stale)
  if (status.mode === 'offline') groups.push({ line: [cacheAge(health)], rank: RANK.connection });
  const fill = fillGroup(status.fill);
  if (fill) groups.push({ line: fill, rank: RANK.fill });
  // the live history streams in a group of their own, last
  const streams: Line = [seg('sync', 'muted')];
  const history: Line = [seg('hist', 'muted')];
  for (const h of health) {
    const when = h.ageMs === null ? '-' : age(h.ageMs);
    const into = h.stream in LIVE_HISTORY_TABLES ? history : streams;
    into.push(seg(` ${STREAM_SHORT[h.stream] ?? h.stream} ${when}${HEALTH_MARK[h.health]}`, HEALTH_TONE[h.health]));
  }
  groups.push({ line: streams, rank: RANK.sync });
  groups.push({ line: listenerGroup(status.listener), rank: RANK.listener });
  // this monitor's listener or a `listen` beside it: kills are being refused, so it stays in sight as the connection does
  if (refusing) groups.push({ line: [seg('!! listener refusing', 'bad', true)], rank: RANK.lastGood });
  const selected = cities.find((c) => c.city_id === city);
  // the clock ticks once a second; a pass that ended since read the same clock later (the demo's world clock runs
  // two minutes a second): the clock is never behind the answer it shows beside it
  const answered = status.connection.lastGoodAt === undefined ? Number.NaN : Date.parse(status.connection.lastGoodAt);
  const clockMs = Number.isFinite(answered) ? Math.max(nowMs, answered) : nowMs;
  // the market's clock is the service's (DESIGN 4): said when it runs apart from this machine's
  const offset = clockOffsetMs();
  groups.push({
    line: [
      seg(utcClock(clockMs), 'accent'),
      seg(selected ? ` ${selected.city_id} ${localDayClock(clockMs, selected.tz)}` : '', 'accent'),
      seg(
        offset !== null && Math.abs(offset) > SHOWN_CLOCK_OFFSET_MS ? ` clock ${signedDuration(offset)}` : '',
        'muted',
      ),
    ],
    rank: RANK.clocks,
  });
  if (notice) groups.push({ line: [seg(notice, 'warn', true)], rank: RANK.notice });
  if (history.length > 1) groups.push({ line: history, rank: RANK.hist });
  return groups;
}

/** The status bar's lines at `width`: one when every group fits on it, else two (layoutStatus). */
export function useStatusLines(width: number, cities: readonly City[]): Line[] {
  return layoutStatus(useStatusGroups(cities), width);
}

/** The bottom of the screen: the lines of useStatusLines. */
export function StatusBar({ lines, width }: { lines: readonly Line[]; width: number }) {
  return <LineView lines={lines} width={width} height={lines.length} />;
}

/** Offline review: the age of the newest good sync the cache holds. */
function cacheAge(health: readonly StreamHealth[]): Segment {
  const ages = health.flatMap((h) => (h.ageMs === null ? [] : [h.ageMs]));
  return ages.length === 0
    ? seg('cache never synced', 'muted')
    : seg(`cache synced ${age(Math.max(0, Math.min(...ages)))} ago`, 'muted');
}

/** The demo's history fill while it runs (or why it stopped); nothing once it is done. */
function fillGroup(f: MonitorStatus['fill']): Line | null {
  if (!f || f.state === 'done') return null;
  // commas by hand: Number.toLocaleString would pull ICU's data into the process (7 MB; city-time.ts says why)
  const rows = String(Math.round(f.rows)).replace(/\B(?=(\d{3})+$)/g, ',');
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
