import { describe, expect, it } from 'vitest';
import { STRATEGY_FAMILIES } from '../../src/contract/strategies.js';
import { DEFAULT_INTERVALS_MS, POLLED_STREAMS } from '../../src/domain/streams.js';
import { STREAMS } from '../../src/sync/streams.js';

describe('the stream catalogue', () => {
  it('lists every polled stream in the order a pass runs them, strategy families included', () => {
    expect(POLLED_STREAMS).toEqual(['cities', 'current', 'forecasts', ...STRATEGY_FAMILIES, 'fusion-locks']);
  });

  it('is what the sync engine schedules: the same streams, the same default intervals', () => {
    expect(STREAMS.map((s) => [s.name, s.everyMs])).toEqual(Object.entries(DEFAULT_INTERVALS_MS));
  });
});
