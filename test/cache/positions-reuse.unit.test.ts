import { describe, expect, it } from 'vitest';
import { openCache } from '../../src/cache/index.js';
import type { No24Record } from '../../src/contract/strategies.js';

const record = (id: number, currentNo: number) =>
  ({
    id,
    city_id: 'nyc',
    local_date: '2026-11-21',
    bucket_slug: '48-49f',
    bucket_label: '48-49°F',
    strategy: 'no24',
    side: 'NO',
    shares: 12.5,
    stake: 10,
    no_ask: 0.8,
    current_no_price: currentNo,
    outcome: null,
    roi: null,
  }) as unknown as No24Record;

describe('open positions read again', () => {
  it('hand back the object parsed before for a row whose stored text is unchanged, and a new one for a changed row', () => {
    const cache = openCache(':memory:');
    cache.resources.upsertStrategy('no24', [record(1, 0.75), record(2, 0.6)]);
    const first = cache.positions.open('2026-11-20').strategies;
    // the service marks record 2 again: its JSON changes, record 1's does not
    cache.resources.upsertStrategy('no24', [record(2, 0.55)]);
    const second = cache.positions.open('2026-11-20').strategies;
    const byId = (rows: typeof first, id: number) => rows.find((s) => s.record.id === id)?.record;
    expect(byId(second, 1)).toBe(byId(first, 1));
    expect(byId(second, 2)).not.toBe(byId(first, 2));
    expect((byId(second, 2) as No24Record).current_no_price).toBe(0.55);
    cache.close();
  });
});
