import { describe, expect, it } from 'vitest';
import { MARKET_DAY_TOPICS } from '../../src/board/market-day.js';

describe('what a pane of market days watches (MARKET_DAY_TOPICS)', () => {
  it("is every table readMarketDay's reads read, taken from their own lists", () => {
    // read off readMarketDay by hand: the forecast layers (polled, and their history as of an instant), the models'
    // day ahead, the METAR day (history and polls), each venue's newest snapshot, the day's lock, the stream states.
    // The board's list used to leave out the history of forecasts and the daily models' table: a backfill of either
    // left the board unrefreshed.
    expect([...MARKET_DAY_TOPICS].sort()).toEqual(
      [
        'current',
        'forecasts',
        'fusion-locks',
        'historical/forecast_history',
        'historical/metar_observations_history',
        'historical/mkta_buckets_history',
        'historical/mktb_buckets_history',
        'historical/model_forecasts_daily',
        'streams',
      ].sort(),
    );
  });
});
