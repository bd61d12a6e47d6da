import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Cache, openCache } from '../../src/cache/index.js';
import type { StrategyRecord } from '../../src/contract/strategies.js';
import { at, DAY, fillAsOfDay, LOCK } from './as-of-day.js';

/** The reads behind the board, Forecasts, Signals, Positions and Alerts as of an instant, on the day of as-of-day.ts. */
let cache: Cache;
beforeEach(() => {
  cache = openCache(':memory:');
  fillAsOfDay(cache);
});
afterEach(() => cache.close());

// 2026-11-24 in New York: 05:00Z to 05:00Z the next day
const SPAN = { date: DAY, startMs: at('05:00'), endMs: at('05:00', '2026-11-25') };

describe('market reads as of an instant', () => {
  it('the newest snapshot at or before the instant, the later ones not read', () => {
    const prices = (atMs: number) => cache.market.newestSnapshot('mkta', 'nyc', DAY, atMs).map((q) => q.yes_price);
    expect(prices(at('13:59'))).toEqual([]);
    expect(prices(at('14:00'))).toEqual([0.3, 0.4]);
    expect(prices(at('17:59'))).toEqual([0.35, 0.45]);
    expect(prices(at('18:00'))).toEqual([0.1, 0.8]);
    // Positions' marks: the newest quote of each bucket then
    const book = cache.market.quotes('nyc', 600, at('16:30'));
    expect(book.bySlugOf(DAY, '54-55f')?.yes_price).toBe(0.45);
    expect(cache.market.quotes('nyc', 600, at('13:00')).bySlugOf(DAY, '54-55f')).toBeUndefined();
  });

  it('the running high up to the instant, history and polls together', () => {
    const high = (atMs: number) => cache.market.metarDay('nyc', SPAN, atMs).high;
    // 05:59Z: nothing of the day yet (06:00Z is its first reading)
    expect(high(at('05:59'))).toBeNull();
    // 16:00Z: 5 and 9 °C so far -> 9 °C, 48.2 °F, first reached by the 14:00Z reading
    expect(high(at('16:00'))).toEqual({ f: 48.2, c: 9, since: at('14:00') });
    // 18:30Z: 12 °C from history, then the poll's 12.4 °C (54.3 °F)
    expect(high(at('18:30'))).toEqual({ f: 54.3, c: 12.4, since: at('18:30') });
    // 19:00Z: 13 °C (55.4 °F)
    expect(high(at('19:00'))).toEqual({ f: 55.4, c: 13, since: at('19:00') });
    expect(high(at('23:00'))?.c).toBe(13);
  });

  it('the desk: the newest run at or before the instant from forecasts or forecast_history, the poll on a tie', () => {
    const desk = (atMs: number) => {
      const row = cache.market.forecasts('nyc', atMs).find((r) => r.layer === 'svc_pro_forecast') as
        | { predicted_max_c: number; sigma_c: number; fetched_at: string }
        | undefined;
      return row && [row.fetched_at, row.predicted_max_c, row.sigma_c];
    };
    expect(desk(at('13:04'))).toBeUndefined();
    // 13:05Z: the poll and the history row of the same run: the poll (mu 11), not the history's 99
    expect(desk(at('13:05'))).toEqual([`${DAY}T13:05:00Z`, 11, 1]);
    expect(desk(at('14:59'))).toEqual([`${DAY}T14:05:00Z`, 12, 1]);
    expect(desk(at('15:05'))).toEqual([`${DAY}T15:05:00Z`, 12.5, 0.8]);
    // a run read from history carries no models, reasoning or hourly points: empty, and says where it came from
    expect(cache.market.forecasts('nyc', at('15:05'))[0]).toMatchObject({
      models_used: [],
      reasoning: '',
      hourly: [],
      pacing_source: 'forecast_history',
      hottest_model: 'gfs',
    });
    // the other layers come from forecasts only
    expect(cache.market.forecasts('nyc', at('15:05')).map((r) => r.layer)).toEqual([
      'svc_pro_forecast',
      'edge_ensemble_daily',
      'model_tmax_range',
    ]);
    // a history row more than a day before the instant is not the desk's current forecast
    expect(desk(at('16:00', '2026-11-25'))).toEqual([`${DAY}T13:05:00Z`, 11, 1]);
    // as of the newest row (no instant): the newest run, from history
    expect(desk(Number.MAX_SAFE_INTEGER)).toEqual([`${DAY}T15:05:00Z`, 12.5, 0.8]);
  });

  it('a lock resolved after the instant is unresolved at it; none before its lock time', () => {
    expect(cache.market.dayLock('nyc', SPAN, at('19:59'))).toBeNull();
    expect(cache.market.dayLock('nyc', SPAN, at('21:00'))).toEqual({
      ...LOCK,
      resolved: false,
      actual_tmax_f: null,
      actual_tmax_c: null,
      hit: null,
      payout_usd: null,
      pnl_usd: null,
    });
    // its day ends at 05:00Z: from then on it is as stored
    expect(cache.market.dayLock('nyc', SPAN, at('04:59', '2026-11-25'))?.resolved).toBe(false);
    expect(cache.market.dayLock('nyc', SPAN, at('05:00', '2026-11-25'))).toEqual(LOCK);
  });

  it('the current sources as fetched or observed by the instant', () => {
    // 18:29Z: no poll yet; the METAR history's 17:00Z reading (12 °C, 53.6 °F)
    expect(cache.market.readings('nyc', at('18:29')).map((r) => [r.source, r.temp_f])).toEqual([
      ['metar_observations', 53.6],
    ]);
    expect(cache.market.readings('nyc', at('18:30')).map((r) => [r.source, r.temp_f])).toEqual([
      ['wxa_current', 50],
      ['wxb_current', 51],
      ['metar_observations', 54.3],
      ['pws_observations', 52],
    ]);
  });
});

describe('positions as of an instant', () => {
  const families = (atMs: number) =>
    cache.positions.open('2026-11-23', 500, atMs).strategies.map((s) => [s.family, s.record.id]);

  it('a record settled after the instant is open at it, without its outcome or its settled mark', () => {
    // no24 enters at 00:01 local (05:01Z), svc-max-picks at its entry hour 11 (16:00Z)
    expect(families(at('05:00'))).toEqual([]);
    expect(families(at('05:01'))).toEqual([['no24', 1]]);
    expect(families(at('16:00'))).toEqual([
      ['no24', 1],
      ['svc-max-picks', 2],
    ]);
    const no24 = cache.positions.open('2026-11-23', 500, at('16:00')).strategies[0]?.record as StrategyRecord & {
      current_no_price: number | null;
    };
    expect([no24.outcome, no24.roi, no24.current_no_price]).toEqual([null, null, null]);
    // the next day's yescore record enters at its 00:01 local, 2026-11-25T05:01Z
    expect(families(at('05:01', '2026-11-25'))).toEqual([['yescore', 3]]);
    // now: only the open record, as stored
    expect(cache.positions.open('2026-11-23').strategies.map((s) => s.record.id)).toEqual([3]);
  });

  it('counts what was open then, and reads the same through openOfDay', () => {
    const atNoon = cache.positions.open('2026-11-23', 500, at('17:00'));
    expect(atNoon.counts.strategies).toEqual({ no24: 1, yescore: 0, 'svc-max-picks': 1 });
    const day = cache.positions.openOfDay('nyc', DAY, 500, at('17:00'));
    expect(day.strategies.map((s) => s.record.id)).toEqual([1, 2]);
    expect(cache.positions.openOfDay('nyc', DAY).strategies).toEqual([]);
  });

  it('locks: open from their lock time until their day ends', () => {
    const locks = (atMs: number) => cache.positions.open('2026-11-23', 500, atMs).locks;
    expect(locks(at('19:59'))).toEqual([]);
    expect(locks(at('21:00')).map((l) => [l.id, l.resolved, l.pnl_usd])).toEqual([['lock-24', false, null]]);
    expect(cache.positions.open('2026-11-23', 500, at('21:00')).counts.locks).toBe(1);
    expect(locks(at('05:00', '2026-11-25'))).toEqual([]);
    expect(cache.positions.openOfDay('nyc', DAY, 500, at('21:00')).locks.map((l) => l.id)).toEqual(['lock-24']);
  });

  it('a pick is open from its creation until its kill, an edge trade from its entry until its exit', () => {
    const book = (atMs: number) => cache.positions.open('2026-11-23', 500, atMs);
    expect(book(at('13:59')).picks).toEqual([]);
    const before = book(at('18:59'));
    expect(before.picks.map((p) => [p.pick_id, p.status, p.kill])).toEqual([['pick-1', 'open', null]]);
    expect(before.counts.picks).toBe(1);
    expect(book(at('19:00')).picks).toEqual([]);
    expect(book(at('14:59')).trades).toEqual([]);
    expect(book(at('17:59')).trades.map((t) => [t.engine_trade_id, t.status, t.exit, t.pnl_usd])).toEqual([
      [7, 'open', null, null],
    ]);
    expect(book(at('18:00')).trades).toEqual([]);
    // now: the pick is killed and the trade exited
    expect([book(Number.MAX_SAFE_INTEGER).picks, book(Number.MAX_SAFE_INTEGER).trades]).toEqual([[], []]);
  });
});

describe('alerts and kills as of an instant', () => {
  it('a kill exists from its receipt and is unacknowledged until it was acknowledged', () => {
    const days = (atMs: number) => cache.alerts.unacknowledgedKillDays(500, atMs);
    // the kill's event says 19:00:00Z; the alert is raised when it was received, 19:00:05Z
    expect(days(Date.parse(`${DAY}T19:00:04Z`))).toEqual([]);
    expect(days(Date.parse(`${DAY}T19:00:05Z`))).toEqual([{ city_id: 'nyc', market_date: DAY }]);
    expect(days(at('20:00'))).toEqual([]);
    expect(cache.alerts.unacknowledgedKillDays()).toEqual([]);

    const kills = (atMs: number) => cache.alerts.older('kill', null, 10, atMs).map((a) => a.ref);
    const acked = (atMs: number) => cache.alerts.older('acknowledged', null, 10, atMs).map((a) => a.ref);
    expect([kills(at('19:30')), acked(at('19:30'))]).toEqual([['pick-1'], []]);
    expect([kills(at('20:00')), acked(at('20:00'))]).toEqual([[], ['pick-1']]);
    expect(cache.alerts.counts(at('19:30'))).toEqual({ unacknowledged: 1, kills: 1 });
    expect(cache.alerts.counts(at('19:00'))).toEqual({ unacknowledged: 0, kills: 0 });
    expect(cache.alerts.counts()).toEqual({ unacknowledged: 0, kills: 0 });
  });
});

describe('the Signals feed as of an instant', () => {
  const feed = (atMs: number) => cache.feed.older(null, 50, atMs).map((s) => `${s.kind}:${s.key}`);

  it('holds the signals up to the instant, a record settled since without its outcome', () => {
    // 17:00Z: the pick (14:00Z), the edge entry (15:00Z), svc-max-picks (16:00Z), no24 (05:01Z)
    expect(feed(at('17:00'))).toEqual(['svc-max-picks:2', 'edge-entry:7', 'pick:pick-1', 'no24:1']);
    const no24 = cache.feed.older(null, 50, at('17:00')).find((s) => s.kind === 'no24');
    expect(no24 && 'outcome' in no24 ? [no24.outcome, no24.roi] : null).toEqual([null, null]);
    // the exit (18:00Z), the kill (19:00Z), the lock (20:00Z), its settlement (05:00Z) and the next day's yescore
    expect(feed(at('05:01', '2026-11-25'))).toEqual([
      'yescore:3',
      'lock-resolved:lock-24',
      'lock:lock-24',
      'kill:pick-1',
      'edge-exit:7',
      'svc-max-picks:2',
      'edge-entry:7',
      'pick:pick-1',
      'no24:1',
    ]);
    // paging from a cursor stays within the instant, and back again
    const [first] = cache.feed.older(null, 1, at('17:00'));
    expect(cache.feed.older(first ?? null, 10, at('17:00')).map((s) => s.key)).toEqual([7, 'pick-1', 1]);
    const last = cache.feed.older(null, 50, at('17:00')).at(-1);
    expect(last && cache.feed.newer(last, 10, at('17:00')).map((s) => s.key)).toEqual(['pick-1', 7, 2]);
  });

  it('shows a settled record or lock as it stood at the instant in its detail', () => {
    const no24 = cache.feed.older(null, 50, at('17:00')).find((s) => s.kind === 'no24');
    const [payload] = no24 ? cache.feed.payloads(no24, at('17:00')) : [];
    expect(payload?.label).toBe('no24 record as it stood then (settled since)');
    expect(JSON.parse(payload?.text ?? '{}')).toMatchObject({ id: 1, outcome: null, roi: null });
    const [now] = no24 ? cache.feed.payloads(no24) : [];
    expect(JSON.parse(now?.text ?? '{}')).toMatchObject({ id: 1, outcome: 'loss', roi: -1 });
  });
});
