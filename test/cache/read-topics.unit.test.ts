import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOARD_RECORD_TOPICS } from '../../src/board/board-record.js';
import { CITY_DAY_TOPICS, readCityDay } from '../../src/board/city-detail.js';
import { MARKET_DAY_TOPICS, readMarketDay } from '../../src/board/market-day.js';
import { BOARD_TOPICS, readBoard } from '../../src/board/read-board.js';
import {
  ALERT_READ_TOPICS,
  type Cache,
  type CacheTopic,
  FEED_READ_TOPICS,
  HISTORY_READ_TOPICS,
  MARKET_READ_TOPICS,
  POSITION_TOPICS,
  readNow,
} from '../../src/cache/index.js';
import { TABLE_TOPICS } from '../../src/cache/topics.js';
import { localDay } from '../../src/domain/city-time.js';
import { FORECAST_TOPICS, forecastData } from '../../src/tui/panes/forecasts/forecast-read.js';
import { PARIS } from '../helpers/cache-builder.js';
import { schemaTables, tablesRead, undeclaredTopics } from '../helpers/recorded-tables.js';
import { REPLAY_DAY, repricedReplayDay } from '../helpers/replay-day.js';

/**
 * The topics each read declares (what a pane showing it watches) against the tables it really queries: every
 * statement the read runs is recorded and compiled again under EXPLAIN, its tables named by SQLite
 * (helpers/recorded-tables.ts), each table's topic taken from TABLE_TOPICS. A read whose list leaves out a table it
 * queries fails here: the pane would not be read again when that table changes. Over the hand-built Paris day of
 * helpers/replay-day.ts (a forecast, mkta's snapshots, METAR, a pick killed, a lock resolved), read live (after the
 * day) and as of 11:30Z on it, so both the polled tables' and the history tables' branches run.
 */
let cache: Cache;
beforeAll(() => {
  cache = repricedReplayDay();
});
afterAll(() => cache.close());

const AT = Date.parse(`${REPLAY_DAY}T11:30:00Z`);
/** After the day: the live reads of a settled day. */
const LATER = Date.parse(`${REPLAY_DAY}T20:00:00Z`);
const DAY = localDay(REPLAY_DAY, PARIS.tz);

/**
 * What the settled-day reads query and do not watch, on purpose (cache/history/history.ts, SETTLED_DAY_TOPICS): the
 * polled and live tables (prices, METAR, the desk's poll, the sources now) gain rows only for days not yet settled,
 * which those reads leave out, so a price tick changes nothing they return; the cities are synced once.
 */
const SETTLED_DAYS_UNWATCHED: readonly CacheTopic[] = [
  'cities',
  'current',
  'forecasts',
  'historical/metar_observations_history',
  'historical/mkta_buckets_history',
  'historical/mktb_buckets_history',
];

const marketRead = (name: string) => `cache.market.${name} (MARKET_READ_TOPICS.${name})`;

/** Each read's topics, and the work that reads it (live, then as of the instant). */
const READS: [name: string, declared: readonly CacheTopic[], read: () => unknown][] = [
  [
    'readMarketDay (MARKET_DAY_TOPICS)',
    MARKET_DAY_TOPICS,
    () => {
      readMarketDay(cache, PARIS, LATER);
      readMarketDay(cache, PARIS, AT, { date: REPLAY_DAY });
    },
  ],
  [
    'the board (BOARD_TOPICS)',
    BOARD_TOPICS,
    () => {
      readBoard(cache, [PARIS], LATER, {}, new Map(), { tomorrow: true });
      readBoard(cache, [PARIS], AT, {}, new Map(), { date: REPLAY_DAY, asOf: AT });
    },
  ],
  [
    'the selected city’s detail (CITY_DAY_TOPICS)',
    CITY_DAY_TOPICS,
    () => {
      readCityDay(cache, PARIS, REPLAY_DAY, LATER);
      readCityDay(cache, PARIS, REPLAY_DAY, AT, AT);
    },
  ],
  [
    'Forecasts’ page (FORECAST_TOPICS)',
    FORECAST_TOPICS,
    () => {
      readNow(forecastData(cache, { city: PARIS, nowMs: LATER, settlement: {} }));
      readNow(forecastData(cache, { city: PARIS, nowMs: AT, settlement: {}, date: REPLAY_DAY }));
    },
  ],
  [
    'the feed (FEED_READ_TOPICS)',
    FEED_READ_TOPICS,
    () => {
      const page = cache.feed.older(null, 50);
      cache.feed.older(null, 50, AT);
      const last = page[page.length - 1];
      if (last) cache.feed.newer(last, 50);
    },
  ],
  [
    'the open positions (POSITION_TOPICS)',
    POSITION_TOPICS,
    () => {
      cache.positions.open('2026-11-19');
      cache.positions.open('2026-11-19', 100, AT);
      cache.positions.openOfDay(PARIS.city_id, REPLAY_DAY, 100, AT);
    },
  ],
  [
    'the kills unacknowledged (ALERT_READ_TOPICS.unacknowledgedKillDays)',
    ALERT_READ_TOPICS.unacknowledgedKillDays,
    () => {
      cache.alerts.unacknowledgedKillDays();
      cache.alerts.unacknowledgedKillDays(500, AT);
    },
  ],
  ['History’s summaries (HISTORY_READ_TOPICS.summary)', HISTORY_READ_TOPICS.summary, () => cache.history.summary({})],
  [
    'the book’s realised P&L (HISTORY_READ_TOPICS.realisedParts)',
    HISTORY_READ_TOPICS.realisedParts,
    () => [cache.history.realisedParts({}), cache.history.realisedParts({ cityId: PARIS.city_id })],
  ],
  [
    'the calibration’s settled days (HISTORY_READ_TOPICS.calibrationDays)',
    [...HISTORY_READ_TOPICS.calibrationDays, ...SETTLED_DAYS_UNWATCHED],
    () => cache.history.calibrationDays({}),
  ],
  [
    'the board record’s settled days (HISTORY_READ_TOPICS.boardRecordDays)',
    [...HISTORY_READ_TOPICS.boardRecordDays, ...SETTLED_DAYS_UNWATCHED],
    () => cache.history.boardRecordDays({}),
  ],
  ...(
    [
      ['quotes', () => cache.market.quotes(PARIS.city_id, 50, AT)],
      ['dayQuotes', () => cache.market.dayQuotes('mkta', PARIS.city_id, REPLAY_DAY, AT)],
      ['newestSnapshot', () => cache.market.newestSnapshot('mktb', PARIS.city_id, REPLAY_DAY, AT)],
      ['metarDay', () => [cache.market.metarDay(PARIS.city_id, DAY), cache.market.metarDay(PARIS.city_id, DAY, AT)]],
      ['dayLock', () => cache.market.dayLock(PARIS.city_id, DAY, AT)],
      ['forecasts', () => [cache.market.forecasts(PARIS.city_id), cache.market.forecasts(PARIS.city_id, AT)]],
      ['forecastsOfDate', () => cache.market.forecastsOfDate(PARIS.city_id, REPLAY_DAY, AT)],
      ['warmestModel', () => cache.market.warmestModel(PARIS.city_id, DAY, AT)],
      ['dayAhead', () => cache.market.dayAhead(PARIS.city_id, DAY, AT)],
      ['readings', () => [cache.market.readings(PARIS.city_id), cache.market.readings(PARIS.city_id, AT)]],
      ['daySeries', () => readNow(cache.market.daySeries(PARIS.city_id, DAY, { atMs: AT, unit: 'C' }))],
    ] as const
  ).map(([name, read]): [string, readonly CacheTopic[], () => unknown] => [
    marketRead(name),
    MARKET_READ_TOPICS[name],
    read,
  ]),
];

describe('the topics each read declares cover the tables it really queries', () => {
  it.each(READS)('%s', (_name, declared, read) => {
    expect(undeclaredTopics(declared, read)).toEqual([]);
  });

  it('every read of the market repository is recorded above: a new read is added to READS', () => {
    const recorded = READS.map(([name]) => name);
    const missing = Object.keys(MARKET_READ_TOPICS).filter((read) => !recorded.includes(marketRead(read)));
    expect(missing).toEqual([]);
  });

  it('every table of the schema has its topic, or none said so (TABLE_TOPICS)', () => {
    const names = schemaTables(() => cache.resources.cities());
    // at least the tables every read above queries, and the cache's own (a page's checkpoint, the service's clock)
    expect(names).toEqual(expect.arrayContaining(['cities', 'h_mkta_buckets_history', 'checkpoints', 'service_clock']));
    expect(names.filter((t) => !(t in TABLE_TOPICS))).toEqual([]);
    // and no entry for a table the schema no longer holds
    expect(Object.keys(TABLE_TOPICS).filter((t) => !names.includes(t))).toEqual([]);
  });

  it('the settled-day reads change when a day settles or a forecast backfill lands, not at a price tick', () => {
    expect(BOARD_RECORD_TOPICS).toEqual(HISTORY_READ_TOPICS.boardRecordDays);
    for (const topics of [HISTORY_READ_TOPICS.calibrationDays, BOARD_RECORD_TOPICS])
      expect(topics).not.toContain('historical/mkta_buckets_history');
  });

  it('the board names each topic once', () => {
    expect(new Set(BOARD_TOPICS).size).toBe(BOARD_TOPICS.length);
  });

  it('records what a read queries: the board reads the forecasts, the snapshots, METAR, the lock and the book', () => {
    // the tables by hand from readBoard's reads (market-day.ts, read-board.ts), live after the day: the stream states
    // (the model's bound), the desk's forecast, METAR's history, both venues' snapshots, the lock, the open positions
    // of every kind and the kills' alerts (the models' day ahead and the forecasts' history only as of an instant)
    const tables = tablesRead(() => readBoard(cache, [PARIS], LATER, {}, new Map(), { tomorrow: true }));
    for (const table of [
      'stream_state',
      'forecasts',
      'h_metar_observations_history',
      'h_mkta_buckets_history',
      'h_mktb_buckets_history',
      'fusion_locks',
      'insurance_picks',
      'edge_trades',
      's_no24',
      'alerts',
    ])
      expect(tables).toContain(table);
  });
});
