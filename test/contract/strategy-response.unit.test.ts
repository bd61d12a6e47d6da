import { describe, expect, it } from 'vitest';
import { STRATEGY_FAMILIES, strategyResponse } from '../../src/contract/strategies.js';

describe('strategyResponse: one schema object a family', () => {
  it('answers the same object at every call, so the client compiles each family once', () => {
    // the client keys its compiled validators on the schema object (src/client/api-client.ts): a new object each
    // call was a new compile and a new validator kept at every poll of the strategies
    for (const family of STRATEGY_FAMILIES) expect(strategyResponse(family)).toBe(strategyResponse(family));
    expect(strategyResponse('no24')).not.toBe(strategyResponse('yescore'));
  });
});
