import type { LiveCondition } from '../../../alerts/live-conditions.js';
import type { AlertRow, AlertSegment, Cache, NewAlert } from '../../../cache/index.js';
import { type AlertKind, isAlertKind } from '../../../contract/alert-kinds.js';
import { HEALTH_WORD, STREAM_SHORT } from '../../format/health-marks.js';
import { age } from '../../format/time.js';
import type { KeysetSource } from '../../hooks/use-keyset-window.js';
import type { Tone } from '../../theme.js';

/** A row of the Alerts pane: a stored alert (acknowledgeable) or a live condition (clears itself). */
export interface AlertItem {
  segment: number;
  /** The alert id for stored alerts, the place in its segment for conditions. */
  id: number;
  marker: string;
  tone: Tone;
  when: string | null;
  message: string;
  /** The city the alert is about (a trader alert, a kill), by id; null for the conditions. */
  city: string | null;
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
type Segment = { stored: AlertSegment } | { live: keyof LiveItems };
const SEGMENTS: Segment[] = [
  { stored: 'kill' },
  { live: 'connection' },
  { stored: 'rejected' },
  { live: 'sync' },
  { stored: 'other' },
  { live: 'rules' },
  { stored: 'acknowledged' },
];

/** A live condition as the pane shows it (no segment or place yet). */
export type LiveItem = Omit<AlertItem, 'segment' | 'id'>;

export interface LiveItems {
  connection: LiveItem[];
  sync: LiveItem[];
  /** Time travel's trader alerts, worked out again at the instant shown (replay-trader-alerts.ts); none live. */
  rules: LiveItem[];
}

/** The live conditions (alerts/live-conditions.ts) in the pane's words. */
export const liveItems = (live: { connection: LiveCondition[]; sync: LiveCondition[] }): LiveItems => ({
  connection: live.connection.map(conditionItem),
  sync: live.sync.map(conditionItem),
  rules: [],
});

/** The first row of time travel's trader alerts while the rules' replay of the instant runs in the background. */
export const WORKING_OUT: LiveItem = {
  marker: '…',
  tone: 'muted',
  when: null,
  message: 'working out… the trader alerts the rules raised by this instant',
  city: null,
  stored: null,
};

/** A trader alert time travel worked out, as the pane shows a stored one of its kind (not acknowledgeable). */
export const ruleItem = (a: NewAlert): LiveItem => ({
  marker: MARKERS[a.kind],
  tone: a.severity === 'info' ? 'normal' : 'warn',
  when: a.created_at,
  message: a.message,
  city: a.city_id ?? null,
  stored: null,
});

function conditionItem(c: LiveCondition): LiveItem {
  return { ...conditionWords(c), city: null };
}

function conditionWords(c: LiveCondition): Omit<LiveItem, 'city'> {
  switch (c.kind) {
    case 'key-rejected':
    case 'service-unreachable': {
      const rejected = c.kind === 'key-rejected';
      const what = rejected ? 'the service rejected the API key (401)' : 'the service cannot be reached';
      const message = `${what}${c.message ? `: ${c.message}` : ''}; showing cached data`;
      return { marker: rejected ? '!! KEY' : '!! SERVICE', tone: 'bad', when: null, message, stored: null };
    }
    case 'stream': {
      const h = c.health;
      const since = h.ageMs === null ? 'never synced' : `last good sync ${age(h.ageMs)} ago`;
      const error = h.error ? `: ${h.error}` : '';
      const name = `${h.stream} (${STREAM_SHORT[h.stream] ?? h.stream})`;
      return {
        marker: `!  ${HEALTH_WORD[h.health]}`,
        tone: h.health === 'stale' ? 'warn' : 'bad',
        when: null,
        message: `sync ${name} ${since}${error}`,
        stored: null,
      };
    }
    case 'listener-down': {
      const where = c.url ? ` at ${c.url}` : '';
      const message = `webhook listener${where} is down: picks, kills and edge trades are not arriving`;
      return { marker: '!! LISTENER', tone: 'bad', when: null, message, stored: null };
    }
  }
}

/** Each kind's marker in words (never colour alone), in the 13 columns the marker has: the message says the rest. */
const MARKERS = {
  kill: '!! KILL',
  'webhook-rejected': '!  REJECTED',
  'listener-down': '!  LISTENER',
  'listener-refusing': '!! REFUSING',
  'notify-command-failed': '!  COMMAND',
  'dying-bucket': '!! DEAD',
  edge: '!  EDGE',
  breakthrough: '!  BREAKTHRU',
} satisfies Record<AlertKind, string>;

/** A kind's marker; a kind a newer version stored, by its name and severity. */
const markerOf = (kind: string, severity: string): string =>
  isAlertKind(kind) ? MARKERS[kind] : `${severity === 'high' ? '!!' : '! '} ${kind.toUpperCase()}`;

function storedItem(segment: number, row: AlertRow): AlertItem {
  const acked = row.acknowledged_at !== null;
  // an edge the board no longer shows (DESIGN 4 "alerts in time"): nothing to act on, said so until acknowledged
  const gone = row.gone_ms != null;
  const marker = acked ? 'ok ACKED' : gone ? '   GONE' : markerOf(row.kind, row.severity);
  const tone: Tone =
    acked || gone ? 'muted' : row.kind === 'kill' ? 'alarm' : row.severity === 'info' ? 'normal' : 'warn';
  return {
    segment,
    id: row.id,
    marker,
    tone,
    when: row.created_at,
    message: row.message,
    city: row.city_id,
    stored: row,
  };
}

/**
 * The segments as one keyset list: a key is (segment, id); stored segments page by id from the cache, live ones
 * from the few conditions held in memory. Time travel (`asOf`): the stored alerts as they stood at its instant, but
 * for the kinds it works out again (`except`).
 */
export function alertSource(
  cache: Cache,
  live: () => LiveItems,
  asOf?: { atMs: number; except: readonly AlertKind[] },
): KeysetSource<AlertItem, AlertKey> {
  const segmentRows = (s: number, cursor: number | null, limit: number, direction: 'older' | 'newer'): AlertItem[] => {
    const segment = SEGMENTS[s] as Segment;
    if ('stored' in segment) {
      const rows =
        direction === 'older'
          ? cache.alerts.older(segment.stored, cursor, limit, asOf?.atMs, asOf?.except)
          : cache.alerts.newer(segment.stored, cursor, limit, asOf?.atMs, asOf?.except);
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
