import type { DayBook } from '../../src/board/board-row.js';
import type { MarketDay } from '../../src/board/market-day.js';
import type { DayQuote } from '../../src/cache/index.js';
import type { City } from '../../src/contract/cities.js';
import type { ModelTmaxRange, SvcProForecast } from '../../src/contract/forecasts.js';
import type { FusionLock } from '../../src/contract/fusion-locks.js';
import type { StrategyRecord } from '../../src/contract/strategies.js';
import { holdingsOf } from '../../src/domain/held-buckets.js';
import type { OpenBook, PickPosition, TradePosition } from '../../src/domain/position-pnl.js';
import type { SettlementRule } from '../../src/domain/settlement.js';

/**
 * Market days built by hand, for the board's computations and the rules that read them: every figure is the test's
 * own, none from the simulated world. 17:00Z on 2026-11-24 is 12:00 in New York and 18:00 in Paris.
 */
export const AT = Date.parse('2026-11-24T17:00:00Z');
export const DAY = '2026-11-24';

export const NYC: City = {
  city_id: 'nyc',
  city_name: 'New York City',
  country: 'US',
  lat: 0,
  lon: 0,
  tz: 'America/New_York',
  icao: 'KLGA',
  station_name: 'KLGA',
};
export const PARIS: City = { ...NYC, city_id: 'paris', city_name: 'Paris', country: 'FR', tz: 'Europe/Paris' };

/** `svc_pro_forecast` with its `_c` aliases as given (the `_f` ones converted, for the eye only). */
export function primary(muC: number | undefined, sigmaC: number | undefined): SvcProForecast {
  return {
    local_date: DAY,
    predicted_max_c: muC,
    sigma_c: sigmaC,
    predicted_max_f: muC === undefined ? undefined : (muC * 9) / 5 + 32,
    sigma_f: sigmaC === undefined ? undefined : (sigmaC * 9) / 5,
  } as unknown as SvcProForecast;
}

/** The models' Tmax range with its warmest member in both units. */
export const range = (maxF: number, maxC: number, spreadF = 2): ModelTmaxRange =>
  ({ local_date: DAY, tmax_max_f: maxF, tmax_max_c: maxC, spread_f: spreadF }) as unknown as ModelTmaxRange;

let ids = 0;
/** A venue's quote of one bucket on the newest snapshot (taken at 16:55Z unless `snapshotAt` says otherwise). */
export const quote = (
  label: string | null,
  yes: number | null,
  no: number | null,
  slug = label,
  snapshotAt: string | null = '2026-11-24T16:55:00Z',
): DayQuote => ({
  id: ++ids,
  bucket_slug: slug,
  bucket_label: label,
  yes_price: yes,
  no_price: no,
  snapshot_at: snapshotAt,
});

interface DayOptions {
  city?: City;
  rule?: SettlementRule;
  forecast?: SvcProForecast | null;
  range?: ModelTmaxRange | null;
  /** The METAR high so far, whole °C; null: no reading yet. */
  highC?: number | null;
  mkta?: DayQuote[];
  mktb?: DayQuote[];
  /** Up to when the METAR and the desk are held (DESIGN 4); default null: no bound. */
  modelKnownUntilMs?: number | null;
  /**
   * The readings that raised the running high and the warmest model published by each; default: the one reading of
   * the high at 16:00Z against `range`, as if published before it.
   */
  highs?: MarketDay['highs'];
}

/** One city's market day as the cache read would give it (board/market-day.ts), from the options alone. */
export function marketDay(o: DayOptions = {}): MarketDay {
  const city = o.city ?? NYC;
  const high = o.highC ?? null;
  const f = high === null ? null : (high * 9) / 5 + 32;
  return {
    city,
    market: { unit: city.country === 'US' ? 'F' : 'C', rule: o.rule ?? 'metar_c' },
    date: DAY,
    atMs: AT,
    primary: o.forecast === undefined ? primary(12.5, 1) : o.forecast,
    ensemble: null,
    range: o.range ?? null,
    rangeFrom: o.range ? 'model_tmax_range' : null,
    dayAhead: [],
    metar: {
      points: high === null ? [] : [{ ms: AT - 3_600_000, temp_f: f as number, temp_c: high }],
      high: high === null ? null : { f: f as number, c: high, since: AT - 3_600_000 },
    },
    highs:
      o.highs ??
      (high === null
        ? []
        : [
            {
              ms: AT - 3_600_000,
              highC: high,
              warmest: o.range ? { c: o.range.tmax_max_c, f: o.range.tmax_max_f } : null,
            },
          ]),
    mkta: o.mkta ?? [],
    mktb: o.mktb ?? [],
    lock: null,
    modelKnownUntilMs: o.modelKnownUntilMs ?? null,
  };
}

/**
 * New York (°F, metar_c), N(12.5, 1) °C, METAR high so far 12 °C (53.6 °F, settles at 54), both venues' newest
 * snapshots; mktb also lists the top tail only it quotes and a label the monitor cannot read. Every figure it gives is
 * worked by hand in priced-day.unit.test.ts.
 */
export const NEW_YORK = marketDay({
  highC: 12,
  mkta: [
    quote('51°F or below', 0.01, 0.99),
    quote('52-53°F', 0.02, 0.97),
    quote('54-55°F', 0.7, 0.32),
    quote('56-57°F', 0.1, 0.91),
  ],
  mktb: [quote('54-55°F', 0.75, 0.27), quote('Over 60 F', 0.01, 0.99), quote('58°F or higher', 0.01, 0.99)],
});

/** New York's open book: a YES of yescore on 52-53°F (10 shares for 3.00) and a lock on 54-55°F (40 tokens at 0.25). */
export const BOOK: OpenBook<PickPosition, TradePosition> = {
  strategies: [
    {
      family: 'yescore',
      record: {
        id: 11,
        city_id: 'nyc',
        local_date: DAY,
        side: 'YES',
        bucket_slug: '52-53°F',
        bucket_label: '52-53°F',
        shares: 10,
        stake: 3,
        yes_ask: 0.3,
        current_yes_price: 0.3,
      } as unknown as StrategyRecord,
    },
  ],
  locks: [
    {
      id: 'L1',
      city_id: 'nyc',
      local_date: DAY,
      bucket_slug: '54-55°F',
      bucket_label: '54-55°F',
      yes_price: 0.25,
      tokens: 40,
      resolved: false,
    } as unknown as FusionLock,
  ],
  picks: [],
  trades: [],
  counts: { strategies: { no24: 0, yescore: 1, 'svc-max-picks': 0 }, locks: 1, picks: 0, trades: 0 },
};
/** New York's book of the day, as the board reads it. */
export const HELD: DayBook = { book: BOOK, holdings: holdingsOf(BOOK, 'nyc', DAY), killed: false };

/** A day with no open position. */
export const NO_BOOK: DayBook = {
  book: {
    strategies: [],
    locks: [],
    picks: [],
    trades: [],
    counts: { strategies: { no24: 0, yescore: 0, 'svc-max-picks': 0 }, locks: 0, picks: 0, trades: 0 },
  },
  holdings: [],
  killed: false,
};

/** DESIGN 3's fields of a city of `export board`, in its order. */
export const BOARD_CITY_FIELDS = [
  'city_id',
  'city_name',
  'local_date',
  'local_time',
  'phase',
  'unit',
  'mu_c',
  'sigma_c',
  'mu',
  'sigma',
  'spread',
  'running_high_c',
  'next',
  'buckets',
  'best_edge',
  'behind',
  'staked',
  'pnl',
  'flags',
];
