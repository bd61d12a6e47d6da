import type { StreamHealth } from '../../../alerts/stream-health.js';
import type { AlertSegment } from '../../../cache/alert-reads.js';
import type { Cache } from '../../../cache/cache.js';
import type { AlertRow } from '../../../cache/meta.js';
import { HEALTH_WORD, STREAM_SHORT } from '../../format/health-marks.js';
import { age } from '../../format/time.js';
import type { KeysetSource } from '../../hooks/use-keyset-window.js';
import type { Tone } from '../../theme.js';
import type { MonitorStatus } from '../../types.js';

/** A row of the Alerts pane: a stored alert (acknowledgeable) or a live condition (clears itself). */
export interface AlertItem {
  segment: number;
  /** The alert id for stored alerts, the place in its segment for conditions. */
  id: number;
  marker: string;
  tone: Tone;
  when: string | null;
  message: string;
  stored: AlertRow | null;
}

export interface AlertKey {
  segment: number;
  id: number;
}

/**
 * The pane's order: kills first, then a rejected key or an unreachable service, rejected webhooks, failing or stale
 * streams and a listener that went down, the other alerts, and last what was acknowledged.
 */
type Segment = { stored: AlertSegment } | { live: 'connection' | 'sync' };
const SEGMENTS: Segment[] = [
  { stored: 'kill' },
  { live: 'connection' },
  { stored: 'rejected' },
  { live: 'sync' },
  { stored: 'other' },
  { stored: 'acknowledged' },
];

/** Live conditions: what the status object and the stream states say right now. */
export function liveConditions(
  status: MonitorStatus,
  streams: readonly StreamHealth[],
): { connection: Omit<AlertItem, 'segment' | 'id'>[]; sync: Omit<AlertItem, 'segment' | 'id'>[] } {
  const connection: Omit<AlertItem, 'segment' | 'id'>[] = [];
  const c = status.connection;
  if (c.state === 'auth-rejected' || c.state === 'unreachable') {
    const what =
      c.state === 'auth-rejected' ? 'the service rejected the API key (401)' : 'the service cannot be reached';
    const marker = c.state === 'auth-rejected' ? '!! KEY' : '!! SERVICE';
    const message = `${what}${c.message ? `: ${c.message}` : ''}; showing cached data`;
    connection.push({ marker, tone: 'bad', when: null, message, stored: null });
  }
  const sync: Omit<AlertItem, 'segment' | 'id'>[] = [];
  if (status.mode !== 'offline') {
    // the worst first: a failing stream, then one many polls behind, then one a few behind
    const rank = { failing: 0, dead: 1, stale: 2, ok: 3, never: 3 } as const;
    for (const h of [...streams].sort((a, b) => rank[a.health] - rank[b.health])) {
      if (h.health === 'ok' || h.health === 'never') continue;
      const since = h.ageMs === null ? 'never synced' : `last good sync ${age(h.ageMs)} ago`;
      const error = h.error ? `: ${h.error}` : '';
      const name = `${h.stream} (${STREAM_SHORT[h.stream] ?? h.stream})`;
      const tone: Tone = h.health === 'stale' ? 'warn' : 'bad';
      sync.push({
        marker: `!  ${HEALTH_WORD[h.health]}`,
        tone,
        when: null,
        message: `sync ${name} ${since}${error}`,
        stored: null,
      });
    }
  }
  const l = status.listener;
  if (l.state === 'down') {
    const where = l.url ? ` at ${l.url}` : '';
    const message = `webhook listener${where} is down: picks, kills and edge trades are not arriving`;
    sync.push({ marker: '!! LISTENER', tone: 'bad', when: null, message, stored: null });
  }
  return { connection, sync };
}

function storedItem(segment: number, row: AlertRow): AlertItem {
  const acked = row.acknowledged_at !== null;
  const marker = acked
    ? 'ok ACKED'
    : row.kind === 'kill'
      ? '!! KILL'
      : row.kind === 'webhook-rejected'
        ? '!  REJECTED'
        : row.severity === 'high'
          ? `!! ${row.kind.toUpperCase()}`
          : `!  ${row.kind.toUpperCase()}`;
  const tone: Tone = acked ? 'muted' : row.kind === 'kill' ? 'alarm' : row.severity === 'info' ? 'normal' : 'warn';
  return { segment, id: row.id, marker, tone, when: row.created_at, message: row.message, stored: row };
}

/**
 * The segments as one keyset list: a key is (segment, id); stored segments page by id from the cache, live ones
 * from the few conditions held in memory.
 */
export function alertSource(
  cache: Cache,
  live: () => ReturnType<typeof liveConditions>,
): KeysetSource<AlertItem, AlertKey> {
  const segmentRows = (s: number, cursor: number | null, limit: number, direction: 'older' | 'newer'): AlertItem[] => {
    const segment = SEGMENTS[s] as Segment;
    if ('stored' in segment) {
      const rows =
        direction === 'older'
          ? cache.panes.alerts.older(segment.stored, cursor, limit)
          : cache.panes.alerts.newer(segment.stored, cursor, limit);
      return rows.map((row) => storedItem(s, row));
    }
    const items = live()[segment.live].map((item, id) => ({ ...item, segment: s, id }));
    if (direction === 'older') return items.filter((i) => cursor === null || i.id > cursor).slice(0, limit);
    return items
      .filter((i) => cursor === null || i.id < cursor)
      .reverse()
      .slice(0, limit);
  };
  return {
    keyOf: (item) => ({ segment: item.segment, id: item.id }),
    older(after, limit) {
      const out: AlertItem[] = [];
      for (let s = after?.segment ?? 0; s < SEGMENTS.length && out.length < limit; s++) {
        out.push(...segmentRows(s, after && s === after.segment ? after.id : null, limit - out.length, 'older'));
      }
      return out;
    },
    newer(before, limit) {
      const out: AlertItem[] = [];
      for (let s = before.segment; s >= 0 && out.length < limit; s--) {
        out.push(...segmentRows(s, s === before.segment ? before.id : null, limit - out.length, 'newer'));
      }
      return out;
    },
  };
}
