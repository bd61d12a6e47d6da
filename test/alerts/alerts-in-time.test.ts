import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { alertSettingsOf } from '../../src/alerts/alert-settings.js';
import { runMarketAlerts } from '../../src/alerts/market-alert-pass.js';
import { desktopNotify } from '../../src/alerts/notifier.js';
import { TraderAlerts } from '../../src/alerts/trader-alerts.js';
import type { AlertRow, Cache } from '../../src/cache/index.js';
import { cityNames } from '../../src/domain/city-names.js';
import type { AlertItem } from '../../src/tui/panes/alerts/alert-items.js';
import { alertLine } from '../../src/tui/panes/alerts/alert-lines.js';
import { BERLIN, cLeg, handCaches, PARIS, pickEvent, ROME, yescore } from '../helpers/cache-builder.js';
import { fakeNotifySend } from '../helpers/listener-harness.js';

/**
 * DESIGN 4 "alerts in time" and issue 44 item 5 on caches written by hand, three °C markets of 2026-11-24 (a bucket
 * `c°C` settles on [c - 0.5, c + 0.5); Paris, Berlin and Rome are UTC+1 in November). Every figure worked here.
 */
const caches = handCaches('alerts-in-time-');
afterAll(() => caches.close());
const DAY = '2026-11-24';
const kindOf = (cache: Cache, kind: string): AlertRow[] =>
  cache.alerts.older('other', null, 50).filter((a) => a.kind === kind);

describe('a kill says what selling its legs at the bid brings', () => {
  it('gives each leg its shares, the YES bid of its bucket’s newest mkta snapshot (1 - its NO price) and shares x bid, and the total', () => {
    const h = caches.open();
    const pick = randomUUID();
    h.cities(PARIS)
      // 10:30Z: 17°C at 0.04 / 0.97, 16°C at 0.15 / 0.86; 10:50Z: 17°C again at 0.03 / 0.98, the newest. A snapshot
      // gives the prices to buy each side: selling YES gets 1 - the NO price, 17°C 1 - 0.98 = 0.02, 16°C 1 - 0.86 = 0.14
      .quotes('mkta', PARIS, DAY, '2026-11-24T10:30:00Z', [
        ['16°C', 0.15, 0.86],
        ['17°C', 0.04, 0.97],
      ])
      .quotes('mkta', PARIS, DAY, '2026-11-24T10:50:00Z', [['17°C', 0.03, 0.98]]);
    const legs = [cLeg('A', 17, { shares: 125 }), cLeg('B', 16, { shares: 40 })];
    h.deliver([
      pickEvent('insurance.pick.created', { pickId: pick, city: PARIS, date: DAY, at: '2026-11-24T08:00:00Z', legs }),
    ]);
    // the hedge addon's leg C on 19°C, which no snapshot quotes
    h.deliver([
      pickEvent('insurance.addon.created', {
        pickId: randomUUID(),
        parent: pick,
        city: PARIS,
        date: DAY,
        at: '2026-11-24T09:00:00Z',
        legs: [cLeg('C', 19, { shares: 20 })],
      }),
    ]);
    h.deliver([
      pickEvent('insurance.pick.killed', {
        pickId: pick,
        city: PARIS,
        date: DAY,
        at: '2026-11-24T11:00:00Z',
        legs,
        reason: 'METAR high 18°C is above both legs',
      }),
    ]);
    const [kill] = h.cache.alerts.older('kill', null, 5);
    // A: 125 x 0.02 = 2.50; B: 40 x 0.14 = 5.60; C unquoted; total 2.50 + 5.60 = 8.10
    expect(kill?.message).toBe(
      'KILL paris 2026-11-24: SELL AT MARKET: legs A 17°C, B 16°C, C 19°C. METAR high 18°C is above both legs. ' +
        'Sell A 17°C 125 sh at bid 0.02 = 2.50 USD, B 16°C 40 sh at bid 0.14 = 5.60 USD, C 19°C 20 sh, no bid cached; ' +
        'proceeds 8.10 USD (without C)',
    );
  });
});

/**
 * Paris: the desk says N(12, 1), no METAR yet. With Φ(0.5) = 0.691462 and Φ(1.5) = 0.933193, p(13°C) = 0.933193 -
 * 0.691462 = 0.241731, so NO on 13°C is worth 0.758269. At 10:30Z mkta quotes 13°C .45/.57 (cost max(0.01, 0.01) =
 * 0.01): NO 0.758269 - 0.57 - 0.01 = +0.178, the day's best (12°C .20/.82: YES 0.382925 - 0.20 - 0.01 = +0.173).
 * At 10:45Z 13°C is quoted .27/.74 (cost max(0.01, 0.005) = 0.01): NO 0.758269 - 0.74 - 0.01 = +0.008, below 0.05.
 */
describe('an edge alert the board no longer shows', () => {
  it('reads gone at the local time of the snapshot where it fell below, at the price then', async () => {
    const h = caches.open();
    h.cities(PARIS)
      .forecast(PARIS, DAY, { mu_c: 12, sigma_c: 1, at: '2026-11-24T10:05:00Z' })
      .quotes('mkta', PARIS, DAY, '2026-11-24T10:30:00Z', [
        ['12°C', 0.2, 0.82],
        ['13°C', 0.45, 0.57],
      ])
      .streams({ metar: { ok: '2026-11-24T10:31:00Z' }, forecasts: { ok: '2026-11-24T10:31:00Z' } });
    const [edge] = await runMarketAlerts(h.cache, 0.05, new Date('2026-11-24T10:31:00Z'));
    expect(edge?.ref).toBe('paris|2026-11-24|13°C|NO');
    expect(edge?.gone_ms).toBeNull();
    // the same snapshot a minute later: still shown at +17.8, still live
    await runMarketAlerts(h.cache, 0.05, new Date('2026-11-24T10:32:00Z'));
    expect(kindOf(h.cache, 'edge')[0]?.gone_ms).toBeNull();

    h.quotes('mkta', PARIS, DAY, '2026-11-24T10:45:00Z', [
      ['12°C', 0.2, 0.82],
      ['13°C', 0.27, 0.74],
    ]).streams({ metar: { ok: '2026-11-24T10:46:00Z' }, forecasts: { ok: '2026-11-24T10:46:00Z' } });
    await runMarketAlerts(h.cache, 0.05, new Date('2026-11-24T10:46:00Z'));
    const [gone] = kindOf(h.cache, 'edge');
    expect([gone?.gone_ms, gone?.gone_price]).toEqual([Date.parse('2026-11-24T10:45:00Z'), 0.74]);
    // a later pass does not move it; the day's edge is not raised again
    await runMarketAlerts(h.cache, 0.05, new Date('2026-11-24T10:50:00Z'));
    expect(kindOf(h.cache, 'edge').map((a) => a.gone_ms)).toEqual([Date.parse('2026-11-24T10:45:00Z')]);

    // the pane: 10:45Z is 11:45 in Paris
    const item: AlertItem = {
      segment: 4,
      id: gone?.id as number,
      marker: '   GONE',
      tone: 'muted',
      when: gone?.created_at as string,
      message: gone?.message as string,
      city: 'paris',
      stored: gone as AlertRow,
    };
    const text = alertLine(item, cityNames([PARIS]), 200, () => 'Europe/Paris')
      .map((s) => (typeof s === 'string' ? s : s.text))
      .join('');
    expect(text).toContain('gone 11:45 at 0.74 · Paris 2026-11-24: edge +17.8 points on NO 13°C at 0.57 on mkta');
  });
});

describe('alerts found late', () => {
  const saved = process.env.PATH;
  afterEach(() => {
    process.env.PATH = saved;
  });

  /**
   * The first start of a monitor at 22:30Z (23:30 in Berlin, Paris and Rome), on a cache whose day happened hours
   * before: Berlin's 15 °C at 10:20Z killed a held 13°C (a yescore YES, 25 shares); Paris's mkta snapshot of 10:30Z
   * holds NO 13°C at +17.8 (above). Rome's desk says N(20, 1): at 22:29Z mkta quotes 20°C .20/.82, YES 0.382925 -
   * 0.20 - 0.01 = +17.3 points, a minute old: news. With the default intervals (METAR and the venues every minute),
   * anything older than two minutes was found late.
   */
  it('are stamped with their reading or snapshot, listed as catch-up and never notified; a fresh one notifies', async () => {
    const h = caches.open();
    const at = '2026-11-24T10:05:00Z';
    h.cities(BERLIN, PARIS, ROME)
      .forecast(PARIS, DAY, { mu_c: 12, sigma_c: 1, at })
      .forecast(BERLIN, DAY, { mu_c: 12, sigma_c: 1, tmax_max_c: 14, at })
      .forecast(ROME, DAY, { mu_c: 20, sigma_c: 1, at })
      .quotes('mkta', PARIS, DAY, '2026-11-24T10:30:00Z', [
        ['12°C', 0.2, 0.82],
        ['13°C', 0.45, 0.57],
      ])
      .quotes('mkta', ROME, DAY, '2026-11-24T22:29:00Z', [['20°C', 0.2, 0.82]])
      .metar(BERLIN, DAY, [['2026-11-24T10:20:00Z', 15]])
      .streams({ metar: { ok: '2026-11-24T22:29:30Z' }, forecasts: { ok: '2026-11-24T22:29:30Z' } })
      .records(
        'yescore',
        yescore({ id: 501, city_id: 'berlin', local_date: DAY, bucket_label: '13°C', shares: 25, ask: 0.4 }),
      );
    // the desktop's notify-send is a fake first on PATH: what it is asked to show is what a trader would see
    const notifySend = fakeNotifySend(caches.root);
    process.env.PATH = `${notifySend.bin}:${saved}`;
    const alerts = new TraderAlerts({
      cache: h.cache,
      settings: alertSettingsOf({ edge_min: 0.05 }),
      now: () => new Date('2026-11-24T22:30:00Z'),
      notify: desktopNotify,
      log: () => undefined,
    });
    await alerts.flush();
    await alerts.close(5_000);
    const all = h.cache.alerts.older('other', null, 50);
    const of = (kind: string, city: string) => all.find((a) => a.kind === kind && a.city_id === city);
    // stamped with the reading that killed the bucket and the snapshot of the price, not 22:30Z
    expect([of('dying-bucket', 'berlin')?.created_at, of('dying-bucket', 'berlin')?.catch_up]).toEqual([
      '2026-11-24T10:20:00Z',
      1,
    ]);
    expect([of('edge', 'paris')?.created_at, of('edge', 'paris')?.catch_up]).toEqual(['2026-11-24T10:30:00Z', 1]);
    expect([of('edge', 'rome')?.created_at, of('edge', 'rome')?.catch_up]).toEqual(['2026-11-24T22:29:00Z', 0]);
    // newest first by their own instants: Rome 22:29, Paris 10:30, then Berlin's of 10:20
    expect(all.map((a) => a.city_id)).toEqual(['rome', 'paris', ...all.slice(2).map(() => 'berlin')]);
    // the fake notify-send was asked once, for Rome's edge alone
    const calls = notifySend.calls();
    expect(calls).toHaveLength(1);
    expect(calls[0]?.join(' ')).toContain('Edge +17.3 pts · Rome');
    expect(calls.flat().join(' ')).not.toMatch(/Berlin|Paris/);
  });
});

describe('the Alerts pane’s order', () => {
  it('lists by the alerts’ own instants, newest first, whatever order they were stored in', () => {
    const h = caches.open();
    // stored DEAD (12:33Z) first, then an EDGE of a snapshot at 12:30Z found after it, then one at 12:40Z
    const add = (kind: 'dying-bucket' | 'edge', at: string) =>
      h.cache.alerts.add({ severity: 'info', kind, message: `${kind} ${at}`, city_id: 'paris', created_at: at });
    const dead = add('dying-bucket', '2026-11-24T12:33:00Z');
    const early = add('edge', '2026-11-24T12:30:00Z');
    const late = add('edge', '2026-11-24T12:40:00Z');
    expect(h.cache.alerts.older('other', null, 10).map((a) => a.id)).toEqual([late, dead, early]);
    // paged one at a time, and back
    expect(h.cache.alerts.older('other', late, 1).map((a) => a.id)).toEqual([dead]);
    expect(h.cache.alerts.older('other', dead, 5).map((a) => a.id)).toEqual([early]);
    expect(h.cache.alerts.newer('other', early, 5).map((a) => a.id)).toEqual([dead, late]);
  });
});
