import { describe, expect, it } from 'vitest';
import { type ConnectionStatus, liveConditions } from '../../src/alerts/live-conditions.js';
import type { StreamHealth } from '../../src/alerts/stream-health.js';

const FINE: ConnectionStatus = {
  mode: 'live',
  connection: { state: 'ok' },
  listener: { state: 'listening', url: 'http://127.0.0.1:8788/' },
};
const stream = (name: string, health: StreamHealth['health']): StreamHealth => ({
  stream: name,
  health,
  ageMs: health === 'never' ? null : 1000,
  error: null,
});

describe('live alert conditions', () => {
  it('report nothing when all is well (never-synced streams are not yet a problem)', () => {
    expect(liveConditions(FINE, [stream('cities', 'ok'), stream('current', 'never')])).toEqual({
      connection: [],
      sync: [],
    });
  });

  it('report a rejected key or an unreachable service with the reason given', () => {
    const rejected = { ...FINE, connection: { state: 'auth-rejected', message: '401 invalid key' } } as const;
    expect(liveConditions(rejected, []).connection).toEqual([{ kind: 'key-rejected', message: '401 invalid key' }]);
    const down = { ...FINE, connection: { state: 'unreachable' } } as const;
    expect(liveConditions(down, []).connection).toEqual([{ kind: 'service-unreachable', message: undefined }]);
  });

  it('report failing streams first, then those many polls behind, then a few behind; the listener last', () => {
    const streams = [stream('a', 'stale'), stream('b', 'ok'), stream('c', 'failing'), stream('d', 'dead')];
    const status = { ...FINE, listener: { state: 'down', url: 'http://127.0.0.1:8788/' } } as const;
    expect(liveConditions(status, streams).sync).toEqual([
      { kind: 'stream', health: streams[2] },
      { kind: 'stream', health: streams[3] },
      { kind: 'stream', health: streams[0] },
      { kind: 'listener-down', url: 'http://127.0.0.1:8788/' },
    ]);
  });

  it('report no stream offline, where nothing is expected to sync', () => {
    const offline = { ...FINE, mode: 'offline', connection: { state: 'offline' } } as const;
    expect(liveConditions(offline, [stream('current', 'dead')])).toEqual({ connection: [], sync: [] });
  });
});
