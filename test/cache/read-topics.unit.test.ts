import { describe, expect, it } from 'vitest';
import { BOARD_RECORD_TOPICS } from '../../src/board/board-record.js';
import { BOARD_TOPICS } from '../../src/board/read-board.js';
import { ALERT_READ_TOPICS, FEED_READ_TOPICS, HISTORY_READ_TOPICS } from '../../src/cache/index.js';

/**
 * What a pane watches is what the cache's read declares it reads (issue 33: no topic list written by hand in a pane).
 * The lists below are worked out from the reads' SQL, table by table.
 */
describe('the tables each read declares', () => {
  it('the feed: each source’s table and the cities whose zones place a signal', () => {
    // stored sources: insurance_picks (kills, picks and addons), edge_trades (entries, exits), webhook_events (tests),
    // fusion_locks (locks); derived: fusion_locks (settled), s_svc_max_picks, s_yescore, s_no24; cities: the zones
    expect([...FEED_READ_TOPICS].sort()).toEqual([
      'cities',
      'edge-trades',
      'fusion-locks',
      'insurance-picks',
      'no24',
      'svc-max-picks',
      'webhook-events',
      'yescore',
    ]);
  });

  it('History: the summaries read the three families, the locks and the forecast scores', () => {
    expect([...HISTORY_READ_TOPICS.summary].sort()).toEqual([
      'fusion-locks',
      'historical/forecast_accuracy_daily',
      'no24',
      'svc-max-picks',
      'yescore',
    ]);
  });

  it('the settled-day reads change when a day settles or a forecast backfill lands, not at a price tick', () => {
    const settled = ['fusion-locks', 'historical/forecast_accuracy_daily', 'historical/forecast_history'];
    expect([...HISTORY_READ_TOPICS.calibrationDays]).toEqual(settled);
    expect([...BOARD_RECORD_TOPICS]).toEqual(settled);
    expect(BOARD_RECORD_TOPICS).not.toContain('historical/mkta_buckets_history');
  });

  it('the board watches the kills’ picks as well as the alerts, each topic once', () => {
    expect([...ALERT_READ_TOPICS.unacknowledgedKillDays]).toEqual(['alerts', 'insurance-picks']);
    expect(BOARD_TOPICS).toContain('alerts');
    expect(BOARD_TOPICS).toContain('insurance-picks');
    expect(BOARD_TOPICS).toContain('historical/mkta_buckets_history');
    expect(new Set(BOARD_TOPICS).size).toBe(BOARD_TOPICS.length);
  });
});
