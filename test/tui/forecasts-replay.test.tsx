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

async function replayed(pane?: '5', size = { columns: 160, rows: 70 }) {
  const cache = backfilledDay(caches.open()).cache;
  const app = await renderTui(
    <MonitorApp cache={cache} source={statusSource()} now={now} initialCity="nyc" replayAt={BACKFILLED_AT} />,
    size,
  );
  await app.until((f) => f.includes(`REPLAY ${BACKFILLED_DAY} 12:00 `), 'the banner');
  if (pane === '5') {
    app.stdin.write('5');
    await app.until((f) => f.includes('MODELS'), 'the Forecasts pane');
  }
  return app;
}

/** The two columns of the page's lines (those with the rule between them), without their trailing blanks. */
const halves = (frame: string) =>
  lines(frame).flatMap((l) => {
    const at = l.indexOf(' │');
    return at < 0 ? [] : [{ left: l.slice(0, at).trimEnd(), right: l.slice(at + 3) }];
  });

describe('Forecasts as of an instant of a backfilled day', () => {
  it('shows each source’s newest reading, the desk’s run and the models at or before the instant, none after', async () => {
    const app = await replayed('5');
    const frame = app.frame();
    // NOW: the history's readings, newer than the 12:00Z poll (41.0 °F), each at its own time
    for (const reading of ['wxa 48.2°F 16:30Z', 'wxb 47.3°F 16:45Z', 'METAR 53.6°F 16:30Z', 'PWS 50.9°F 16:40Z'])
      expect(frame).toContain(reading);
    expect(frame).toContain('NOW  four sources, each as of 11-26 17:00Z');
    // the desk's run of 16:00Z from forecast_history, which keeps no models list, reasoning or curve
    expect(frame).toContain('PRIMARY  svc_pro_forecast, the run kept in forecast_history');
    expect(frame).toContain('50.0°F ± 1.8°F   pacing +0.3°C');
    expect(frame).toContain('hottest model gfs · forecast_history keeps no models, reasoning or curve');
    expect(frame).not.toContain('0 models used');
    // the models: each one's forecast of the day from model_forecasts_daily, with their spread
    expect(frame).toContain('MODELS Tmax  day-ahead, model_forecasts_daily');
    expect(frame).toContain('min 48.2°F · mean 50.0°F · max 51.8°F · spread 3.6°F');
    expect(frame).toMatch(/gfs +51\.8°F █/);
    expect(frame).toMatch(/icon +48\.2°F /);
    expect(frame).toMatch(/ecmwf_ifs +50\.0°F /);
    // no ensemble run is cached by then: said so, beside the blends' own forecasts of the day
    expect(frame).toContain('ENSEMBLE  no ensemble history cached before 11-26 17:00Z');
    expect(frame).toContain('day-ahead (model_forecasts_daily): svc_pro 50.2°F · edge_ensemble 50.4°F');
    expect(frame).toContain('model_mean 50.0°F');
    expect(frame).toContain('no hourly forecast in forecast_history');
    // nothing after 17:00Z: not the 18:00Z run or polls, the 17:30Z readings, the next day's models or poll, and
    // never the day's outcome
    // (the chart's axis writes every whole °C of its rows in °F, 55.4 and 57.2 among them: read without it)
    const read = frame.replace(/\S*┤/g, '┤');
    for (const later of ['57.2', 'jma', '86.0', '68.0', '69.8', '71.6', '55.4', '66.2', '77.0', '59.0', '41.0°F'])
      expect(read).not.toContain(later);
    app.unmount();
  });

  it('cuts no line at 160 columns: the buckets’ title and the running high wrap within the left half', async () => {
    const app = await replayed('5');
    const page = halves(app.frame());
    const left = page.map((h) => h.left);
    const at = left.findIndex((l) => l.startsWith('MARKET BUCKETS'));
    expect(left.slice(at, at + 5)).toEqual([
      'MARKET BUCKETS  N(50.0, 1.80) °F · mkta snapshot 11-26 16:55Z',
      '  mktb snapshot 11-26 16:55Z · prices YES bid/ask (bid = 1 - NO)',
      '  edge Y/N points',
      '  METAR high so far 12°C, 53.6°F (settles at 54°F or more):',
      '  buckets below 54°F are dead',
    ]);
    // a line cut at its edge fills it to the last column: the left half is 78 wide, the screen 160
    expect(page.filter((h) => h.left.length >= 78).map((h) => h.left)).toEqual([]);
    expect(lines(app.frame()).filter((l) => l.length >= 160)).toEqual([]);
    app.unmount();
  });
});

describe('the board as of an instant of a backfilled day', () => {
  it('shows the models’ spread from model_forecasts_daily, and no BREAKTHROUGH without a range of the reading', async () => {
    const app = await replayed();
    const row = lines(app.frame()).find((l) => l.startsWith('› New York City'));
    // forecast 50.0±1.8°F, spread 3.6, high 53.6 (12 °C). The daily table's warmest model is 51.8 °F, but DESIGN 4
    // judges a reading against the model_tmax_range published by then, and the day's only one came at 18:00Z
    expect(row).toMatch(/50\.0±1\.8°F +3\.6 +53\.6 /);
    expect(row).not.toMatch(/BREAKTHROUGH/);
    app.unmount();
  });
});
