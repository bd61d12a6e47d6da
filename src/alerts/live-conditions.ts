import type { StreamHealth } from './stream-health.js';

/** What the monitor knows of its connections right now: as much of the CLI's status as the rules read. */
export interface ConnectionStatus {
  mode: 'live' | 'demo' | 'offline';
  /**
   * `connecting` (no pass answered yet) is no condition: nothing has gone wrong. `failing` (the service answers but a
   * stream fails) is reported stream by stream, from the streams' health.
   */
  connection: {
    state: 'connecting' | 'ok' | 'failing' | 'auth-rejected' | 'unreachable' | 'offline';
    message?: string;
  };
  listener: { state: 'off' | 'listening' | 'down'; url?: string };
}

/**
 * Something wrong now that clears itself once fixed (nothing to acknowledge): the service refused the key or cannot
 * be reached, a stream is failing or behind, the webhook listener is down.
 */
export type LiveCondition =
  | { kind: 'key-rejected'; message?: string }
  | { kind: 'service-unreachable'; message?: string }
  | { kind: 'stream'; health: StreamHealth }
  | { kind: 'listener-down'; url?: string };

/** The worst first: a failing stream, then one many polls behind, then one a few behind. */
const RANK = { failing: 0, dead: 1, stale: 2, ok: 3, never: 3 } as const;

/**
 * The live conditions of the status and the streams' health, in two groups: the connection to the service, and
 * what keeps the cache current (streams, listener). Offline, no stream is expected to sync, so none is reported.
 */
export function liveConditions(
  status: ConnectionStatus,
  streams: readonly StreamHealth[],
): { connection: LiveCondition[]; sync: LiveCondition[] } {
  const connection: LiveCondition[] = [];
  const c = status.connection;
  if (c.state === 'auth-rejected') connection.push({ kind: 'key-rejected', message: c.message });
  if (c.state === 'unreachable') connection.push({ kind: 'service-unreachable', message: c.message });
  const sync: LiveCondition[] = [];
  if (status.mode !== 'offline') {
    for (const h of [...streams].sort((a, b) => RANK[a.health] - RANK[b.health])) {
      if (h.health === 'ok' || h.health === 'never') continue;
      sync.push({ kind: 'stream', health: h });
    }
  }
  if (status.listener.state === 'down') sync.push({ kind: 'listener-down', url: status.listener.url });
  return { connection, sync };
}
