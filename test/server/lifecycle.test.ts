import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../helpers/service.js';
import { TEMPLATE_START } from '../helpers/world-template.js';

const HOUR = 3_600_000;
let svc: TestService;

beforeAll(async () => {
  svc = await startTestService();
});
afterAll(async () => {
  await svc.close();
});

describe('as the world moves on', () => {
  it('settles open strategy records in place: same id, outcome and roi set', async () => {
    const families = ['no24', 'yescore', 'svc-max-picks'];
    // 20:00Z: every city's 11:00 local has passed (Seattle's is 19:00Z), so each family holds today's records open
    svc.service.world.advanceTo(TEMPLATE_START + 8 * HOUR);
    const openBefore = new Map<string, any[]>();
    for (const family of families)
      openBefore.set(family, (await svc.get(`/${family}?status=open&limit=1000`)).body.data);
    // no24 and yescore: one record a city a day, 13 cities, today's not settled; svc-max-picks: today's, where a
    // city's ask at 11:00 local was within 0.50..0.85 and below the model probability (how many is the world's)
    expect(openBefore.get('no24')?.length).toBe(13);
    expect(openBefore.get('yescore')?.length).toBe(13);
    const today = openBefore.get('no24')?.[0]?.local_date;
    for (const family of families) for (const r of openBefore.get(family) ?? []) expect(r.local_date).toBe(today);

    svc.service.world.advanceTo(TEMPLATE_START + 40 * HOUR);
    const checked: Record<string, number> = Object.fromEntries(families.map((f) => [f, 0]));

    for (const family of families) {
      const resolved = new Map<number, any>(
        (await svc.get(`/${family}?status=resolved&limit=1000`)).body.data.map((r: any) => [r.id, r]),
      );
      for (const before of openBefore.get(family) ?? []) {
        const after = resolved.get(before.id);
        expect(after, `${family} ${before.id} resolved`).toBeDefined();
        expect(['win', 'loss']).toContain(after.outcome);
        expect(typeof after.roi).toBe('number');
        expect({ ...after, outcome: null, roi: null, current_no_price: 0, current_yes_price: 0 }).toMatchObject({
          ...before,
          current_no_price: 0,
          current_yes_price: 0,
        });
        checked[family] = (checked[family] ?? 0) + 1;
      }
    }
    expect(checked).toEqual({ no24: 13, yescore: 13, 'svc-max-picks': openBefore.get('svc-max-picks')?.length });
  });

  it('settles svc-max picks in place too: the first ones to open, settled after their local midnight', async () => {
    const fresh = await startTestService();
    // svc-max buys only when the venue's ask sits under the desk's probability: move on half a day at a time until it
    // has (at most a few days: it does about once a day over the 13 cities)
    let at = TEMPLATE_START;
    let open: any[] = [];
    while (open.length === 0) {
      expect(at, 'no svc-max pick within 10 days').toBeLessThan(TEMPLATE_START + 10 * 24 * HOUR);
      at += 12 * HOUR;
      fresh.service.world.advanceTo(at);
      open = (await fresh.get('/svc-max-picks?status=open&limit=1000')).body.data;
    }
    // a day and a half on, every local midnight after those picks' 11:00 has passed, Seattle's last
    fresh.service.world.advanceTo(at + 36 * HOUR);
    const resolved = new Map<number, any>(
      (await fresh.get('/svc-max-picks?status=resolved&limit=1000')).body.data.map((r: any) => [r.id, r]),
    );
    let settled = 0;
    for (const before of open) {
      const after = resolved.get(before.id);
      expect(after, `svc-max-picks ${before.id} resolved`).toBeDefined();
      expect(['win', 'loss']).toContain(after.outcome);
      expect(typeof after.roi).toBe('number');
      expect({ ...after, outcome: null, roi: null }).toEqual(before);
      settled++;
    }
    expect(settled).toBe(open.length);
    await fresh.close();
  });

  it('re-serves resolved fusion locks with the same id and their outcome, found by an incremental poll', async () => {
    const fresh = await startTestService();
    // the template stops at 12:00Z, before any of the day's peak hours: let Europe and the US lock first
    fresh.service.world.advanceTo(TEMPLATE_START + 12 * HOUR);
    const unresolved = (await fresh.get('/fusion-locks?resolved=false&limit=500')).body.data;
    expect(unresolved.length).toBeGreaterThan(0);
    const newest = (await fresh.get('/fusion-locks?limit=1')).body.data[0].locked_at;
    const oldestOpen = unresolved[unresolved.length - 1].locked_at;

    fresh.service.world.advanceTo(TEMPLATE_START + 40 * HOUR);

    const incremental = (await fresh.get(`/fusion-locks?since=${newest}&limit=500`)).body.data;
    expect(incremental.some((l: any) => l.locked_at > newest)).toBe(true);
    expect(incremental.every((l: any) => l.locked_at >= newest)).toBe(true);
    const drainedResolutions = new Map<string, any>(
      (await fresh.get(`/fusion-locks?resolved=true&since=${oldestOpen}&limit=500`)).body.data.map((l: any) => [
        l.id,
        l,
      ]),
    );
    for (const lock of unresolved) {
      const after = drainedResolutions.get(lock.id);
      expect(after, `lock ${lock.id} resolved`).toBeDefined();
      expect(after.locked_at).toBe(lock.locked_at);
      expect(after.resolved).toBe(true);
      for (const field of ['actual_tmax_c', 'actual_tmax_f', 'payout_usd', 'pnl_usd'])
        expect(typeof after[field]).toBe('number');
      expect(typeof after.hit).toBe('boolean');
    }
    await fresh.close();
  });
});
