import { afterAll, describe, expect, it, vi } from 'vitest';
import * as layout from '../../../src/tui/panes/forecasts/forecast-layout.js';
import { MonitorApp } from '../../../src/tui/render-monitor.js';
import { handCaches } from '../../helpers/cache-builder.js';
import { monitorScene, now } from '../../helpers/monitor-scene.js';
import { readsSettled, renderTui, statusSource } from '../fixtures.js';

// the real layout, counted: which pages are laid out, and when
vi.mock('../../../src/tui/panes/forecasts/forecast-layout.js', async (actual) => {
  const real = await actual<typeof layout>();
  return { ...real, forecastPage: vi.fn(real.forecastPage) };
});
const forecastPage = vi.mocked(layout.forecastPage);

const caches = handCaches('tui-prewarm-');
afterAll(() => caches.close());

describe('the panes warmed in the background', () => {
  it('lay out the chosen city’s forecast page before its key: the key that first shows Forecasts lays out nothing', async () => {
    const cache = monitorScene(caches.open());
    const app = await renderTui(<MonitorApp cache={cache} source={statusSource()} now={now} initialCity="nyc" />, {
      columns: 130,
      rows: 40,
    });
    await app.until((f) => f.includes('Board · 3 cities'), 'the board');
    await readsSettled(cache);
    // one page, New York's (the city chosen), in its market's unit, at the pane's width
    expect(forecastPage.mock.calls.map(([view, width]) => [view.city.city_id, view.unit, width])).toEqual([
      ['nyc', 'F', 130],
    ]);
    forecastPage.mockClear();
    app.stdin.write('5');
    await app.until((f) => f.includes('New York City (nyc)'), 'Forecasts');
    expect(forecastPage).not.toHaveBeenCalled();
    // the other unit was not laid out ahead: `u` lays it out
    app.stdin.write('u');
    await app.until((f) => f.includes('showing °C (u)'), 'the page in °C');
    expect(forecastPage.mock.calls.map(([view]) => view.unit)).toEqual(['C']);
    app.unmount();
  });
});
