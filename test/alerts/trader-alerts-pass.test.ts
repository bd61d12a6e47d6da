import { afterAll, describe, expect, it } from 'vitest';
import { alertSettingsOf } from '../../src/alerts/alert-settings.js';
import type { DesktopNotification } from '../../src/alerts/notifier.js';
import { TraderAlerts } from '../../src/alerts/trader-alerts.js';
import { exportBoard } from '../../src/board/board-export.js';
import { type AlertRow, type Cache, openCache } from '../../src/cache/index.js';
import { BERLIN, handCaches, PARIS, ROME, yescore } from '../helpers/cache-builder.js';
import { storedAlerts } from '../helpers/cache-rows.js';

const caches = handCaches('trader-alerts-pass-');
afterAll(() => caches.close());

/** The market's clock: 12:00 in Berlin, Paris and Rome (UTC+1); snoozes end on it too (DESIGN 4). */
const NOW = new Date('2026-11-24T11:00:00Z');
const NOW_MS = NOW.getTime();
const DAY = '2026-11-24';
const KINDS = ['dying-bucket', 'edge', 'breakthrough'];
const traderAlerts = (cache: Cache) => storedAlerts(cache).filter((a) => KINDS.includes(a.kind)) as AlertRow[];

/**
 * A synced cache written by hand, three °C markets of 2026-11-24 (a bucket `c°C` settles on [c - 0.5, c + 0.5)):
 *
 * - paris: the desk says N(12, 1), no METAR yet; mkta at 10:30Z: 11°C .24/.78, 12°C .20/.82, 13°C .45/.57. With
 *   Φ(0.5) = 0.691462 and Φ(1.5) = 0.933193: p(12°C) = 2 x 0.691462 - 1 = 0.382925, p(11°C) = p(13°C) = 0.933193 -
 *   0.691462 = 0.241731. Cost is max(0.01, (yes + no - 1) / 2) = 0.01 on each. Effective edges: 11°C YES 0.2417 -
 *   0.24 - 0.01 = -0.008, NO 0.7583 - 0.78 - 0.01 = -0.032; 12°C YES 0.3829 - 0.20 - 0.01 = +0.173, NO 0.6171 - 0.82 -
 *   0.01 = -0.213; 13°C YES 0.2417 - 0.45 - 0.01 = -0.218, NO 0.7583 - 0.57 - 0.01 = +0.178. Two edges: YES 12°C
 *   (+17.3 points, model 38.3%) and NO 13°C (+17.8, model 75.8%): the day's alert is the best, NO 13°C.
 * - berlin: N(12, 1), the warmest model at 14 °C, METAR 15 °C at 10:20Z, no quotes; a yescore YES on 13°C (25 shares,
 *   10.00 staked) is held: 15 is above every model (a breakthrough) and settles above 13 (a dying bucket).
 * - rome: N(20, 1); mkta 20°C .20/.82: YES 0.3829 - 0.20 - 0.01 = +17.3 points. Its city is snoozed.
 *
 * The metar stream synced at 10:58Z, after every one of these days began (23:00Z the day before).
 */
function syncedCache(): Cache {
  const h = caches.open();
  const at = '2026-11-24T10:05:00Z';
  h.cities(BERLIN, PARIS, ROME)
    .forecast(PARIS, DAY, { mu_c: 12, sigma_c: 1, at })
    .forecast(BERLIN, DAY, { mu_c: 12, sigma_c: 1, tmax_max_c: 14, at })
    .forecast(ROME, DAY, { mu_c: 20, sigma_c: 1, at })
    .quotes('mkta', PARIS, DAY, '2026-11-24T10:30:00Z', [
      ['11°C', 0.24, 0.78],
      ['12°C', 0.2, 0.82],
      ['13°C', 0.45, 0.57],
    ])
    .quotes('mkta', ROME, DAY, '2026-11-24T10:30:00Z', [['20°C', 0.2, 0.82]])
    .metar(BERLIN, DAY, [['2026-11-24T10:20:00Z', 15]])
    .streams({ metar: { ok: '2026-11-24T10:58:00Z' }, forecasts: { ok: '2026-11-24T10:58:00Z' } })
    .records(
      'yescore',
      yescore({ id: 501, city_id: 'berlin', local_date: DAY, bucket_label: '13°C', shares: 25, ask: 0.4 }),
    );
  return h.cache;
}

/**
 * The readings and snapshots of this cache are up to 40 minutes older than NOW: streams polled every hour find them
 * within two intervals, as news (DESIGN 4 "alerts in time"; alerts-in-time.test.ts has the default minute's catch-up).
 */
const HOURLY = { metar: 3_600_000, 'mkta-buckets': 3_600_000, 'mktb-buckets': 3_600_000 };

function runner(cache: Cache, shown: DesktopNotification[], edgeMin = 0.05) {
  return new TraderAlerts({
    cache,
    intervals: HOURLY,
    settings: alertSettingsOf({ edge_min: edgeMin }),
    now: () => NOW,
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
    const cache = syncedCache();
    // rome snoozed until an hour after the market's now: its alerts are stored, not shown
    cache.alerts.snoozeCity('rome', NOW_MS + 3_600_000);
    const shown: DesktopNotification[] = [];
    const alerts = runner(cache, shown);
    await alerts.flush();
    const first = traderAlerts(cache);
    // city by city (berlin, paris, rome), each city's dying buckets, breakthrough, then edges; newest first
    expect(first.map((a) => [a.kind, a.city_id, a.message]).reverse()).toEqual([
      [
        'dying-bucket',
        'berlin',
        'berlin 2026-11-24: held bucket 13°C died, METAR high so far 15.0°C settles at 15°C or more; YES 25 shares, ' +
          '10.00 USD staked (yescore 501)',
      ],
      [
        'breakthrough',
        'berlin',
        // at least 14.5 °C, above the warmest model's 14 °C published at 10:05Z, before the 10:20Z (11:20 local) reading
        "berlin 2026-11-24: METAR high 15.0°C at 11:20 local (at least 14.5°C) is above every model's Tmax then (warmest 14.0°C): forecast breakthrough",
      ],
      [
        'edge',
        'paris',
        'paris 2026-11-24: edge +17.8 points on NO 13°C at 0.57 on mkta (model 75.8%; 0.10-0.20 mkta record: n < 10)',
      ],
      [
        'edge',
        'rome',
        'rome 2026-11-24: edge +17.3 points on YES 20°C at 0.20 on mkta (model 38.3%; 0.10-0.20 mkta record: n < 10)',
      ],
    ]);
    expect(first.find((a) => a.message.includes('NO 13°C'))?.ref).toBe('paris|2026-11-24|13°C|NO');

    // the three alerts of berlin and paris notify, one by one; none of rome's
    expect(shown.map((n) => n.title)).toEqual([
      'Dying bucket · Berlin',
      'Breakthrough · Berlin',
      'Edge +17.8 pts · Paris',
    ]);
    expect(shown.map((n) => n.message).join(' ')).not.toContain('rome');

    // the same data again: nothing new (a city-day's edge alert comes once)
    await alerts.flush();
    expect(traderAlerts(cache)).toHaveLength(4);
    await alerts.close(1_000);

    // a restart: a new cache connection and a new runner see the marks the first one stored
    const again = openCache(cache.file);
    try {
      const restarted = runner(again, []);
      await restarted.flush();
      await restarted.close(1_000);
      expect(traderAlerts(again)).toHaveLength(4);
      expect(again.alerts.snoozed(NOW_MS)).toEqual([{ city_id: 'rome', until_ms: NOW_MS + 3_600_000 }]);
      expect(again.alerts.snoozed(NOW_MS + 3_600_000)).toEqual([]);
    } finally {
      again.close();
    }
  });

  it('raise more edges at a lower edge_min, and none at an edge_min no quote reaches', async () => {
    const edges = (c: Cache) => traderAlerts(c).filter((a) => a.kind === 'edge').length;
    const low = syncedCache();
    const lowRun = runner(low, []);
    await lowRun.flush();
    await lowRun.close(1_000);
    // paris's best (+17.8) and rome's (+17.3) are above 5
    expect(edges(low)).toBe(2);
    // ... and below 17.5 but paris's
    const mid = syncedCache();
    const midRun = runner(mid, [], 0.175);
    await midRun.flush();
    await midRun.close(1_000);
    expect(
      traderAlerts(mid)
        .filter((a) => a.kind === 'edge')
        .map((a) => a.ref),
    ).toEqual(['paris|2026-11-24|13°C|NO']);
    const high = syncedCache();
    const highRun = runner(high, [], 0.99);
    await highRun.flush();
    await highRun.close(1_000);
    expect(edges(high)).toBe(0);
  });
});

describe('the edge rule: a price against a model of the same instant (DESIGN 4)', () => {
  /**
   * Paris N(12, 1), mkta at 10:55Z 11°C .24/.78, 12°C .20/.82, 13°C .45/.57, and the current poll read 11 °C at 10:50Z
   * (the temperature now, not the day's high); the desk's runs are held up to 11:00Z. Paris's day began at 23:00Z on
   * the 23rd (UTC+1).
   *
   * Priced on the poll alone, the running high would be 11: p(12°C) = 0.382925 / Φ(1.5) = 0.382925 / 0.933193 =
   * 0.410338, YES 0.4103 - 0.20 - 0.01 = +20.0 points; p(13°C) = 0.241731 / 0.933193 = 0.259034, NO 0.7410 - 0.57 -
   * 0.01 = +16.1. Both wrong: the day's report at 10:20Z was 13 °C. With it, r = 13: 11°C and 12°C are dead (p = 0),
   * p(13°C) = (Φ(1.5) - Φ(0.5)) / (1 - Φ(0.5)) = 0.241731 / 0.308538 = 0.783470. Edges: NO 11°C 1 - 0.78 - 0.01 =
   * +21.0 (model 100.0%), NO 12°C 1 - 0.82 - 0.01 = +17.0 (model 100.0%), YES 13°C 0.783470 - 0.45 - 0.01 = +32.3
   * (model 78.3%); the rest negative.
   */
  const polled = () => {
    const h = caches.open();
    h.cities(PARIS)
      .forecast(PARIS, DAY, { mu_c: 12, sigma_c: 1, at: '2026-11-24T10:05:00Z' })
      .quotes('mkta', PARIS, DAY, '2026-11-24T10:55:00Z', [
        ['11°C', 0.24, 0.78],
        ['12°C', 0.2, 0.82],
        ['13°C', 0.45, 0.57],
      ])
      .current(PARIS, '2026-11-24T10:50:00Z', 11)
      .streams({ current: { ok: '2026-11-24T10:50:00Z' }, forecasts: { ok: '2026-11-24T11:00:00Z' } });
    return h;
  };
  // the day's edge alert: the best of the three
  const TRUE_EDGES = [
    'paris 2026-11-24: edge +32.3 points on YES 13°C at 0.45 on mkta (model 78.3%; 0.20+ mkta record: n < 10)',
  ];
  const pass = async (cache: Cache, shown: DesktopNotification[] = []) => {
    const alerts = runner(cache, shown);
    await alerts.flush();
    await alerts.close(1_000);
    return traderAlerts(cache)
      .map((a) => a.message)
      .reverse();
  };

  it('raises no edge on a running high it does not know, and the true edges once the stream synced', async () => {
    // the metar stream last synced a minute before Paris's midnight: none of the day's reports can be in
    const h = polled().streams({ metar: { ok: '2026-11-23T22:59:00Z' } });
    const shown: DesktopNotification[] = [];
    expect(await pass(h.cache, shown)).toEqual([]);
    expect(shown).toEqual([]);
    h.metar(PARIS, DAY, [['2026-11-24T10:20:00Z', 13]]).streams({ metar: { ok: '2026-11-24T10:58:00Z' } });
    expect(await pass(h.cache)).toEqual(TRUE_EDGES);
  });

  it('compares a snapshot with reports held up to its instant, not one a second later', async () => {
    // the metar stream's last pass first answered at 10:54:59Z: a report of 10:55Z may have moved the venue already
    const h = polled()
      .metar(PARIS, DAY, [['2026-11-24T10:20:00Z', 13]])
      .streams({ metar: { ok: '2026-11-24T10:57:00Z', complete: '2026-11-24T10:54:59Z' } });
    expect(await pass(h.cache)).toEqual([]);
    // its next pass answered first at 10:55:00Z, the snapshot's own instant: every report it could price is held
    h.streams({ metar: { ok: '2026-11-24T10:58:00Z', complete: '2026-11-24T10:55:00Z' } });
    expect(await pass(h.cache)).toEqual(TRUE_EDGES);
  });

  it('holds while the desk’s runs are not held up to the snapshot', async () => {
    const h = polled()
      .metar(PARIS, DAY, [['2026-11-24T10:20:00Z', 13]])
      .streams({ metar: { ok: '2026-11-24T10:58:00Z' }, forecasts: { ok: '2026-11-24T10:50:00Z' } });
    expect(await pass(h.cache)).toEqual([]);
    h.streams({ forecasts: { ok: '2026-11-24T10:59:00Z' } });
    expect(await pass(h.cache)).toEqual(TRUE_EDGES);
  });

  it('holds while the metar stream fails, and the true edges once it succeeds again', async () => {
    const h = polled()
      .metar(PARIS, DAY, [['2026-11-24T10:20:00Z', 13]])
      .streams({ metar: { ok: '2026-11-24T10:30:00Z', failed: ['2026-11-24T10:59:00Z', 'HTTP 503'] } });
    expect(await pass(h.cache)).toEqual([]);
    h.streams({ metar: { ok: '2026-11-24T11:00:00Z' } });
    expect(await pass(h.cache)).toEqual(TRUE_EDGES);
  });

  it('stamps an edge with the instant of its price: the board as of it shows the same edge', async () => {
    // the pass runs at 11:00 with the METAR held to 10:58; the edge is of mkta's 10:55 snapshot, and the board as of
    // 10:55 (the 10:20 report, the 10:05 run, that snapshot) is the board it was worked on
    const h = polled()
      .metar(PARIS, DAY, [['2026-11-24T10:20:00Z', 13]])
      .streams({ metar: { ok: '2026-11-24T10:59:00Z', complete: '2026-11-24T10:58:00Z' } });
    await pass(h.cache);
    const edges = traderAlerts(h.cache).filter((a) => a.kind === 'edge');
    expect(edges.map((a) => a.created_at)).toEqual(['2026-11-24T10:55:00Z']);
    const asOf = exportBoard(h.cache, {
      atMs: Date.parse('2026-11-24T10:55:00Z'),
      replay: true,
      cities: h.cache.resources.cities(),
    });
    // YES 13°C at 0.45: +32.3, the day's best, as the alert said
    expect(asOf[0]?.best_edge).toMatchObject({ venue: 'mkta', bucket_slug: '13c', side: 'YES', price: 0.45 });
    // 0.32347 at DESIGN 3's 4 decimals
    expect(asOf[0]?.best_edge?.edge).toBe(0.3235);
  });

  it('holds on a synced cache whose metar stream never ran', async () => {
    expect(await pass(polled().cache)).toEqual([]);
  });
});
