import type { Cache } from '../../src/cache/index.js';
import {
  cLeg,
  forecastScore,
  fusionLock,
  type HandCache,
  LONDON,
  NYC,
  no24,
  PARIS,
  pickEvent,
  svcMaxPick,
  yescore,
} from './cache-builder.js';
import { edgeEvent, leg } from './webhook-events.js';

/**
 * The monitor's cache for the TUI tests, written by hand (cache-builder.ts): three cities and a few days of a
 * trader's book, every figure chosen so the panes' cells can be worked out on paper. No value comes from the
 * simulated world.
 *
 * Now is 15:00Z on Saturday 2026-11-21: 10:00 in New York (°F, UTC-5), 15:00 in London (°F, UTC), 16:00 in Paris
 * (°C, UTC+1).
 *
 * Today (2026-11-21), desk forecasts fetched 14:05Z, N(10, 1) °C in New York, N(11, 1) in London, N(12, 1) in Paris;
 * METAR 7 °C at 13:51Z (nyc), 10 °C at 14:20Z (london), 11 °C at 14:30Z (paris); mkta quotes at 14:30Z (yes/no):
 *   nyc     47°F or below .05/.96, 48-49°F .30/.72, 50-51°F .42/.60, 52-53°F .18/.84, 54°F or higher .06/.95
 *   london  49°F or below .10/.91, 50-51°F .45/.57, 52-53°F .26/.76, 54°F or higher .20/.82
 *   paris   10°C or below .05/.96, 11°C .22/.80, 12°C .375/.625, 13°C .25/.77 (14°C or higher is not quoted)
 *
 * Open book (stake, the service's own mark):
 *   no24 #101 nyc 50-51°F NO 20 sh at .50 (10.00, .55); #102 london 52-53°F NO 12.5 sh at .80 (10.00, .84);
 *        #103 paris 12°C NO 16 sh at .625 (10.00, .60); #104 paris 14°C or higher NO 11 sh at .90 (9.90, .95)
 *   yescore #201 nyc 48-49°F YES 40 sh at .25 (10.00, .20); no open svc-max pick
 *   locks L-london-1121 50-51°F 25 tokens at .40 (locked 14:00Z), L-paris-1121 12°C 20 tokens at .35 (14:00Z)
 *   picks PICK_NYC (created 14:00Z): A 50-51°F 20 sh at .25 (5.00), B 52-53°F 25 sh at .20 (5.00);
 *         PICK_PARIS (13:00Z): A 12°C 20 sh at .35 (7.00), B 13°C 10 sh at .30 (3.00)
 *   edge trade #7001 london 52-53°F NO, entered 09:00Z at .62, 16.13 sh for 10.00
 *
 * Settled (P&L = stake x roi):
 *   no24 #90 nyc 11-20 win roi .25 (+2.50), #91 london 11-20 loss (-10.00), #92 paris 11-19 win roi .10 (+1.00)
 *   yescore #190 nyc 11-20 win roi 3 (+30.00), #191 paris 11-20 loss (-10.00); svc-max #301 nyc 11-20 at 11:00
 *   local, 5.00 lost
 *   locks L-nyc-1119 50-51°F 25 tokens at .40 hit (+15.00), L-nyc-1120 48-49°F 25 at .32 missed (-8.00),
 *   L-london-1120 52-53°F 20 at .50 hit (+10.00)
 *   killed picks KILLED_LONDON (11-20, created 10:00Z, killed 15:30Z) and KILLED_PARIS (11-19, 09:00Z, 13:00Z),
 *   their kill alerts unacknowledged; edge trade #7000 london 11-20 entered 09:00Z, exited 13:30Z
 *   forecast scores: nyc 11-19 error 1.0 °F, 11-20 2.6 °F; london 11-20 1.0 °F; paris 11-20 1.0 °C
 *
 * Alerts: the two kills and a rejected delivery (14:00Z, body is not JSON): three unacknowledged. Streams: every one
 * succeeded 30 s ago, except current (3 min ago: three polls behind) and fusion-locks (5 min: ten behind);
 * forecasts failed 10 s ago, after its last success.
 */
export const NOW_MS = Date.parse('2026-11-21T15:00:00Z');
export const now = () => new Date(NOW_MS);
export const TODAY = '2026-11-21';

export const PICK_NYC = '11111111-1111-4111-8111-111111111111';
export const PICK_PARIS = '22222222-2222-4222-8222-222222222222';
export const KILLED_LONDON = '33333333-3333-4333-8333-333333333333';
export const KILLED_PARIS = '44444444-4444-4444-8444-444444444444';

const ago = (seconds: number) => new Date(NOW_MS - seconds * 1000).toISOString();

/** Writes the scene into `h`'s cache; without `history`, no historical row at all (a monitor that never backfilled). */
export function monitorScene(h: HandCache, { history = true } = {}): Cache {
  h.cities(NYC, LONDON, PARIS);
  const at = '2026-11-21T14:05:00Z';
  h.forecast(NYC, TODAY, { mu_c: 10, sigma_c: 1, at })
    .forecast(LONDON, TODAY, { mu_c: 11, sigma_c: 1, at })
    .forecast(PARIS, TODAY, { mu_c: 12, sigma_c: 1, at });
  h.current(NYC, '2026-11-21T14:55:00Z', 8)
    .current(LONDON, '2026-11-21T14:55:00Z', 10)
    .current(PARIS, '2026-11-21T14:55:00Z', 11);
  if (history) {
    h.metar(NYC, TODAY, [['2026-11-21T13:51:00Z', 7]])
      .metar(LONDON, TODAY, [['2026-11-21T14:20:00Z', 10]])
      .metar(PARIS, TODAY, [['2026-11-21T14:30:00Z', 11]]);
    const q = '2026-11-21T14:30:00Z';
    h.quotes('mkta', NYC, TODAY, q, [
      ['47°F or below', 0.05, 0.96],
      ['48-49°F', 0.3, 0.72],
      ['50-51°F', 0.42, 0.6],
      ['52-53°F', 0.18, 0.84],
      ['54°F or higher', 0.06, 0.95],
    ])
      .quotes('mkta', LONDON, TODAY, q, [
        ['49°F or below', 0.1, 0.91],
        ['50-51°F', 0.45, 0.57],
        ['52-53°F', 0.26, 0.76],
        ['54°F or higher', 0.2, 0.82],
      ])
      .quotes('mkta', PARIS, TODAY, q, [
        ['10°C or below', 0.05, 0.96],
        ['11°C', 0.22, 0.8],
        ['12°C', 0.375, 0.625],
        ['13°C', 0.25, 0.77],
      ]);
    const [a, b, c, d] = h.ids(4) as [number, number, number, number];
    h.historical('forecast_accuracy_daily', [
      forecastScore(a, 'nyc', '2026-11-19', 'F', 50, 51),
      forecastScore(b, 'nyc', '2026-11-20', 'F', 48.4, 51),
      forecastScore(c, 'london', '2026-11-20', 'F', 52, 53),
      forecastScore(d, 'paris', '2026-11-20', 'C', 12, 13),
    ]);
  }
  h.records(
    'no24',
    no24({
      id: 90,
      city_id: 'nyc',
      local_date: '2026-11-20',
      bucket_label: '46-47°F',
      shares: 12.5,
      ask: 0.8,
      outcome: 'win',
      roi: 0.25,
    }),
    no24({
      id: 91,
      city_id: 'london',
      local_date: '2026-11-20',
      bucket_label: '54°F or higher',
      shares: 20,
      ask: 0.5,
      outcome: 'loss',
    }),
    no24({
      id: 92,
      city_id: 'paris',
      local_date: '2026-11-19',
      bucket_label: '9°C',
      shares: 11,
      ask: 0.91,
      stake: 10,
      outcome: 'win',
      roi: 0.1,
    }),
    no24({ id: 101, city_id: 'nyc', local_date: TODAY, bucket_label: '50-51°F', shares: 20, ask: 0.5, mark: 0.55 }),
    no24({
      id: 102,
      city_id: 'london',
      local_date: TODAY,
      bucket_label: '52-53°F',
      shares: 12.5,
      ask: 0.8,
      mark: 0.84,
    }),
    no24({ id: 103, city_id: 'paris', local_date: TODAY, bucket_label: '12°C', shares: 16, ask: 0.625, mark: 0.6 }),
    no24({
      id: 104,
      city_id: 'paris',
      local_date: TODAY,
      bucket_label: '14°C or higher',
      shares: 11,
      ask: 0.9,
      mark: 0.95,
    }),
  );
  h.records(
    'yescore',
    yescore({
      id: 190,
      city_id: 'nyc',
      local_date: '2026-11-20',
      bucket_label: '50-51°F',
      shares: 40,
      ask: 0.25,
      outcome: 'win',
      roi: 3,
    }),
    yescore({
      id: 191,
      city_id: 'paris',
      local_date: '2026-11-20',
      bucket_label: '13°C',
      shares: 25,
      ask: 0.4,
      outcome: 'loss',
    }),
    yescore({ id: 201, city_id: 'nyc', local_date: TODAY, bucket_label: '48-49°F', shares: 40, ask: 0.25, mark: 0.2 }),
  );
  h.records(
    'svc-max-picks',
    svcMaxPick({
      id: 301,
      city_id: 'nyc',
      local_date: '2026-11-20',
      entry_hour: 11,
      bucket_label: '48-49°F',
      shares: 20,
      ask: 0.25,
      outcome: 'loss',
    }),
  );
  h.locks(
    fusionLock({
      id: 'L-nyc-1119',
      city_id: 'nyc',
      local_date: '2026-11-19',
      locked_at: '2026-11-19T20:00:00Z',
      bucket_label: '50-51°F',
      yes_price: 0.4,
      tokens: 25,
      hit: true,
      actual_c: 11,
    }),
    fusionLock({
      id: 'L-nyc-1120',
      city_id: 'nyc',
      local_date: '2026-11-20',
      locked_at: '2026-11-20T20:00:00Z',
      bucket_label: '48-49°F',
      yes_price: 0.32,
      tokens: 25,
      hit: false,
      actual_c: 11,
    }),
    fusionLock({
      id: 'L-london-1120',
      city_id: 'london',
      local_date: '2026-11-20',
      peak_hour: 14,
      locked_at: '2026-11-20T14:00:00Z',
      bucket_label: '52-53°F',
      yes_price: 0.5,
      tokens: 20,
      hit: true,
      actual_c: 12,
    }),
    fusionLock({
      id: 'L-london-1121',
      city_id: 'london',
      local_date: TODAY,
      peak_hour: 14,
      locked_at: '2026-11-21T14:00:00Z',
      bucket_label: '50-51°F',
      yes_price: 0.4,
      tokens: 25,
    }),
    fusionLock({
      id: 'L-paris-1121',
      city_id: 'paris',
      local_date: TODAY,
      locked_at: '2026-11-21T14:00:00Z',
      bucket_label: '12°C',
      yes_price: 0.35,
      tokens: 20,
    }),
  );
  const killedLondon = {
    pickId: KILLED_LONDON,
    city: LONDON,
    date: '2026-11-20',
    legs: [leg('A', 48, { shares: 20, stake_usd: 5 }), leg('B', 50, { shares: 20, stake_usd: 5 })],
  };
  const killedParis = { pickId: KILLED_PARIS, city: PARIS, date: '2026-11-19', legs: [cLeg('A', 9), cLeg('B', 10)] };
  h.deliver([
    pickEvent('insurance.pick.created', { ...killedParis, at: '2026-11-19T09:00:00Z' }),
    pickEvent('insurance.pick.killed', {
      ...killedParis,
      at: '2026-11-19T13:00:00Z',
      reason: 'METAR high so far 12°C is above every leg',
    }),
    pickEvent('insurance.pick.created', { ...killedLondon, at: '2026-11-20T10:00:00Z' }),
    pickEvent('insurance.pick.killed', {
      ...killedLondon,
      at: '2026-11-20T15:30:00Z',
      reason: 'METAR high so far 53°F is above every leg',
    }),
    pickEvent('insurance.pick.created', {
      pickId: PICK_PARIS,
      city: PARIS,
      date: TODAY,
      at: '2026-11-21T13:00:00Z',
      legs: [
        cLeg('A', 12, { snapshot_price: 0.35, shares: 20, stake_usd: 7 }),
        cLeg('B', 13, { snapshot_price: 0.3, shares: 10, stake_usd: 3 }),
      ],
    }),
    pickEvent('insurance.pick.created', {
      pickId: PICK_NYC,
      city: NYC,
      date: TODAY,
      at: '2026-11-21T14:00:00Z',
      legs: [
        leg('A', 50, { shares: 20, stake_usd: 5 }),
        leg('B', 52, { snapshot_price: 0.2, shares: 25, stake_usd: 5 }),
      ],
    }),
    edgeEvent('edge.trade.entered', { tradeId: 7000, marketDate: '2026-11-20', executedAt: '2026-11-20T09:00:00Z' }),
    edgeEvent('edge.trade.exited', { tradeId: 7000, marketDate: '2026-11-20', executedAt: '2026-11-20T13:30:00Z' }),
    edgeEvent('edge.trade.entered', { tradeId: 7001, marketDate: TODAY, executedAt: '2026-11-21T09:00:00Z' }),
  ]);
  h.rejected(ago(3600), 'body is not JSON', '{nope');
  h.streams({
    cities: { ok: ago(30) },
    current: { ok: ago(180) },
    forecasts: { ok: ago(30), failed: [ago(10), 'service unreachable after 6 attempts'] },
    no24: { ok: ago(30) },
    yescore: { ok: ago(30) },
    'svc-max-picks': { ok: ago(30) },
    'fusion-locks': { ok: ago(300) },
    'mkta-buckets': { ok: ago(30) },
    'mktb-buckets': { ok: ago(30) },
    metar: { ok: ago(30) },
    daily: { ok: ago(30) },
  });
  return h.cache;
}
