import { afterAll, describe, expect, it } from 'vitest';
import { MonitorApp } from '../../src/tui/render-monitor.js';
import { BACKFILLED_AT, BACKFILLED_DAY, backfilledDay } from '../helpers/backfilled-day.js';
import { handCaches } from '../helpers/cache-builder.js';
import { lines, renderTui, statusSource } from './fixtures.js';

const caches = handCaches('tui-forecasts-replay-');
afterAll(() => caches.close());

/**
 * Forecasts and the board as of an instant of a backfilled day (helpers/backfilled-day.ts gives every row and
 * figure): the readings, the desk's run and the models of the history tables at or before 17:00Z (12:00 in New
 * York), none of those after it. Now is the next day, past every row.
 */
const now = () => new Date('2026-11-27T20:00:00Z');

async function replayed(size = { columns: 160, rows: 70 }) {
  const cache = backfilledDay(caches.open()).cache;
  const app = await renderTui(
    <MonitorApp cache={cache} source={statusSource()} now={now} initialCity="nyc" replayAt={BACKFILLED_AT} />,
    size,
  );
  await app.until((f) => f.includes(`REPLAY ${BACKFILLED_DAY} 12:00 `), 'the banner');
  return app;
}

describe('the board as of an instant of a backfilled day', () => {
  it('shows the models’ spread from model_forecasts_daily, and BREAKTHROUGH with the high above the warmest model', async () => {
    const app = await replayed();
    const row = lines(app.frame()).find((l) => l.startsWith('› New York City'));
    // forecast 50.0±1.8°F, spread 3.6, high 53.6 (12 °C) above the warmest model's 51.8 °F
    expect(row).toMatch(/50\.0±1\.8°F +3\.6 +53\.6 /);
    expect(row).toMatch(/BREAKTHROUGH/);
    app.unmount();
  });
});
