import { describe, expect, it } from 'vitest';
import { type AlertRow, type Cache, type NewAlert, openCache } from '../../src/cache/index.js';
import type { AlertKind } from '../../src/contract/alert-kinds.js';
import { walkNewer, walkOlder } from './keyset.js';

const alert = (kind: AlertKind, minute: number): NewAlert => ({
  severity: kind === 'kill' ? 'high' : 'warning',
  kind,
  message: `${kind} at minute ${minute}`,
  ref: `ref-${minute}`,
  created_at: `2026-11-21T12:${String(minute).padStart(2, '0')}:00Z`,
});

/** Alerts of every segment, interleaved; ids 1..9 in this order. */
function filledCache(): Cache {
  const cache = openCache(':memory:');
  const kinds: AlertKind[] = [
    'edge',
    'kill',
    'edge',
    'webhook-rejected',
    'listener-down',
    'kill',
    'edge',
    'edge',
    'kill',
  ];
  for (const [i, kind] of kinds.entries()) cache.alerts.add(alert(kind, i));
  cache.alerts.acknowledge(3, '2026-11-21T13:00:00Z');
  cache.alerts.acknowledge(6, '2026-11-21T13:00:00Z');
  return cache;
}

const idsOf = (rows: AlertRow[]) => rows.map((r) => r.id);

describe('the Alerts pane’s segments, by keyset on the id', () => {
  it('hold each alert in one segment: unacknowledged kills, rejected webhooks, the others, the acknowledged', () => {
    const cache = filledCache();
    expect(idsOf(cache.alerts.older('kill', null, 10))).toEqual([9, 2]);
    expect(idsOf(cache.alerts.older('rejected', null, 10))).toEqual([4]);
    expect(idsOf(cache.alerts.older('other', null, 10))).toEqual([8, 7, 5, 1]);
    expect(idsOf(cache.alerts.older('acknowledged', null, 10))).toEqual([6, 3]);
    expect(cache.alerts.counts()).toEqual({ unacknowledged: 7, kills: 2 });
  });

  it('page the same list at every page size, newest first, and back nearest first', () => {
    const cache = filledCache();
    for (const limit of [1, 2, 3, 4, 5]) {
      const older = walkOlder(
        (after: number | null, n) => cache.alerts.older('other', after, n),
        (r) => r.id,
        limit,
      );
      expect(idsOf(older), `older by ${limit}`).toEqual([8, 7, 5, 1]);
      const newer = walkNewer(
        (before: number, n) => cache.alerts.newer('other', before, n),
        (r) => r.id,
        older.at(-1) as AlertRow,
        limit,
      );
      expect(idsOf(newer), `newer by ${limit}`).toEqual([5, 7, 8]);
    }
  });

  it('end at both ends, and read nothing for an empty segment or a page of no rows', () => {
    const cache = filledCache();
    expect(cache.alerts.older('other', 1, 5)).toEqual([]);
    expect(cache.alerts.newer('other', 8, 5)).toEqual([]);
    // newer from no row at all: the whole segment, oldest first
    expect(idsOf(cache.alerts.newer('other', null, 10))).toEqual([1, 5, 7, 8]);
    expect(cache.alerts.older('other', null, 0)).toEqual([]);
    expect(openCache(':memory:').alerts.older('kill', null, 10)).toEqual([]);
    expect(openCache(':memory:').alerts.counts()).toEqual({ unacknowledged: 0, kills: 0 });
  });
});
