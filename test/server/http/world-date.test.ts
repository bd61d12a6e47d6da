import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../helpers/service.js';
import { TEMPLATE_START } from '../../helpers/world-template.js';

/**
 * DESIGN 4 "the monitor's clock": every answer's `Date` is the world's clock, the instant up to which the world has
 * published, whatever the host's clock says. The test service's world stands at TEMPLATE_START (its tick is a minute
 * away) until the test moves it.
 */
describe('the Date header', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService();
  });
  afterAll(() => svc.close());

  it('is the world’s instant on data, errors and the account pages', async () => {
    // TEMPLATE_START is 2026-11-21T12:00:00Z: published up to a millisecond before it, so the whole second before
    const expected = 'Sat, 21 Nov 2026 11:59:59 GMT';
    expect(new Date(TEMPLATE_START).toISOString()).toBe('2026-11-21T12:00:00.000Z');
    expect((await svc.get('/cities')).headers.get('date')).toBe(expected);
    const refused = await svc.get('/cities', { headers: { 'x-api-key': 'wrong' } });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('date')).toBe(expected);
    const page = await fetch(svc.service.accountUrl);
    expect(page.headers.get('date')).toBe(expected);
  });

  it('moves with the world, not with the host', async () => {
    svc.service.world.advanceTo(TEMPLATE_START + 90 * 60_000 + 500);
    // 13:30:00.500 processed: the 13:30 jobs have run, so 13:30:00 is published
    expect((await svc.get('/cities')).headers.get('date')).toBe('Sat, 21 Nov 2026 13:30:00 GMT');
  });
});
