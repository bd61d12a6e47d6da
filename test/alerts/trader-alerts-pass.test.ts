import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alertSettingsOf } from '../../src/alerts/alert-settings.js';
import type { DesktopNotification } from '../../src/alerts/notifier.js';
import { TraderAlerts } from '../../src/alerts/trader-alerts.js';
import { type AlertRow, type Cache, openCache } from '../../src/cache/index.js';
import { storedAlerts } from '../helpers/cache-rows.js';
import { type Filled, fillCache, now } from '../tui/fixtures.js';

let filled: Filled;
beforeAll(async () => {
  filled = await fillCache();
});
afterAll(() => filled?.close());

const WALL = Date.parse('2026-11-24T09:00:00Z');
const KINDS = ['dying-bucket', 'edge', 'breakthrough'];
const traderAlerts = (cache: Cache) => storedAlerts(cache).filter((a) => KINDS.includes(a.kind)) as AlertRow[];

function runner(cache: Cache, shown: DesktopNotification[], edgeMin = 0.05) {
  return new TraderAlerts({
    cache,
    settings: alertSettingsOf({ edge_min: edgeMin }),
    now,
    wallNow: () => WALL,
    notify: async (n) => {
      shown.push(n);
    },
    log: (line) => {
      throw new Error(`unexpected log line: ${line}`);
    },
  });
}

describe('the trader alerts over a synced cache', () => {
  it('store each alert once, across passes and restarts, and notify all but a snoozed city', async () => {
    const cache = filled.copy();
    // london snoozed until an hour after the trader's clock: its alerts are stored, not shown
    cache.alerts.snoozeCity('london', WALL + 3_600_000);
    const shown: DesktopNotification[] = [];
    const alerts = runner(cache, shown);
    await alerts.flush();
    const first = traderAlerts(cache);
    expect(first.length).toBeGreaterThan(0);
    const edge = first.find((a) => a.kind === 'edge');
    expect(edge?.message).toMatch(
      /^[a-z]+ \d{4}-\d\d-\d\d: edge \+\d+\.\d points on (YES|NO) .+°[FC] at 0\.\d\d on mkt[ab] \(model \d+\.\d%\)$/,
    );
    // the price in the message is the venue's newest quote of that bucket and side, as cached
    const [city, date, bucket, side] = (edge?.ref ?? '').split('|') as [string, string, string, 'YES' | 'NO'];
    const venue = edge?.message.match(/on (mkt[ab]) \(/)?.[1] as 'mkta' | 'mktb';
    const quote = cache.market.dayQuotes(venue, city, date).find((q) => q.bucket_label === bucket);
    const price = side === 'YES' ? quote?.yes_price : quote?.no_price;
    expect(edge?.message).toContain(`${side} ${bucket} at ${price?.toFixed(2)} on ${venue}`);

    // the alerts of every other city notify: the first three one by one, the rest of the burst in one; none of
    // london's
    const others = first.filter((a) => a.city_id !== 'london').sort((a, b) => a.id - b.id);
    expect(others.length).toBeGreaterThan(3);
    // what happened, then the city's name as the cached cities give it (not its id): `Edge +8.7 pts · Chicago`
    const cityName = (id: string | null) => cache.resources.cities().find((c) => c.city_id === id)?.city_name;
    const title = (a: AlertRow) =>
      new RegExp(
        `^${a.kind === 'edge' ? 'Edge [+]\\d+\\.\\d pts' : a.kind === 'breakthrough' ? 'Breakthrough' : 'Dying bucket'} · ${cityName(a.city_id)}$`,
      );
    expect(shown).toHaveLength(4);
    others.slice(0, 3).forEach((a, i) => {
      expect(cityName(a.city_id)).not.toBe(a.city_id);
      expect(shown[i]?.title).toMatch(title(a));
    });
    expect(shown[3]?.title).toBe(`svc-monitor: ${others.length - 3} more alerts`);
    // london's name is in no title and not among the burst's cities
    expect(cityName('london')).toBe('London');
    expect(shown.map((n) => `${n.title} ${n.message}`).join(' ')).not.toContain('London');
    expect(first.some((a) => a.city_id === 'london')).toBe(true);

    // the same data again: nothing new (edges fired stay fired until they fall below half of edge_min)
    await alerts.flush();
    expect(traderAlerts(cache)).toHaveLength(first.length);
    await alerts.close(1_000);

    // a restart: a new cache connection and a new runner see the marks the first one stored
    const again = openCache(cache.file);
    try {
      const restarted = runner(again, []);
      await restarted.flush();
      await restarted.close(1_000);
      expect(traderAlerts(again)).toHaveLength(first.length);
      expect(again.alerts.snoozed(WALL)).toEqual([{ city_id: 'london', until_ms: WALL + 3_600_000 }]);
      expect(again.alerts.snoozed(WALL + 3_600_000)).toEqual([]);
    } finally {
      again.close();
    }
  });

  it('raise more edges at a lower edge_min, and none at an edge_min no quote reaches', async () => {
    const low = filled.copy();
    const lowRun = runner(low, []);
    await lowRun.flush();
    await lowRun.close(1_000);
    const high = filled.copy();
    const highRun = runner(high, [], 0.99);
    await highRun.flush();
    await highRun.close(1_000);
    const edges = (c: Cache) => traderAlerts(c).filter((a) => a.kind === 'edge').length;
    expect(edges(low)).toBeGreaterThan(0);
    expect(edges(high)).toBe(0);
  });
});
