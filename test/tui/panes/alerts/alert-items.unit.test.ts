import { describe, expect, it } from 'vitest';
import { liveItems } from '../../../../src/tui/panes/alerts/alert-items.js';

describe('live conditions as the Alerts pane words them', () => {
  it('says what is wrong with the service, that the data shown is cached, and why', () => {
    const { connection } = liveItems({
      connection: [{ kind: 'key-rejected', message: 'invalid key' }, { kind: 'service-unreachable' }],
      sync: [],
    });
    expect(connection.map((i) => [i.marker, i.tone, i.message])).toEqual([
      ['!! KEY', 'bad', 'the service rejected the API key (401): invalid key; showing cached data'],
      ['!! SERVICE', 'bad', 'the service cannot be reached; showing cached data'],
    ]);
  });

  it('names a stream by its name and its status-bar short name, with its age and error; the listener with its url', () => {
    const { sync } = liveItems({
      connection: [],
      sync: [
        { kind: 'stream', health: { stream: 'forecasts', health: 'failing', ageMs: 600_000, error: 'timeout' } },
        { kind: 'stream', health: { stream: 'current', health: 'stale', ageMs: 180_000, error: null } },
        { kind: 'listener-down', url: 'http://127.0.0.1:8788/' },
      ],
    });
    expect(sync.map((i) => [i.marker, i.tone, i.message])).toEqual([
      ['!  FAILING', 'bad', 'sync forecasts (fc) last good sync 10m ago: timeout'],
      ['!  STALE', 'warn', 'sync current (cur) last good sync 3m ago'],
      [
        '!! LISTENER',
        'bad',
        'webhook listener at http://127.0.0.1:8788/ is down: picks, kills and edge trades are not arriving',
      ],
    ]);
    expect(sync.every((i) => i.stored === null && i.when === null)).toBe(true);
  });
});
