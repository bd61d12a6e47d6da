import { afterAll, describe, expect, it } from 'vitest';
import type { Cache } from '../../../src/cache/index.js';
import { MonitorApp } from '../../../src/tui/render-monitor.js';
import { handCaches } from '../../helpers/cache-builder.js';
import { monitorScene, now } from '../../helpers/monitor-scene.js';
import { lines, renderTui, statusSource } from '../fixtures.js';

const caches = handCaches('tui-tab-bar-');
afterAll(() => caches.close());

/** The hand-built scene (two unacknowledged kills and a rejected delivery) and a third kill: 3 kills, 4 alerts. */
function threeKills(): Cache {
  const cache = monitorScene(caches.open());
  cache.alerts.add({
    severity: 'high',
    kind: 'kill',
    ref: 'kill-rome',
    city_id: 'rome',
    created_at: '2026-11-21T14:00:00Z',
    message: 'KILL rome 2026-11-21: SELL AT MARKET: legs A 15°C, B 16°C.',
  });
  return cache;
}

/** The monitor on that scene in a terminal `columns` wide. */
const renderAt = (columns: number, rows = 24) =>
  renderTui(<MonitorApp cache={threeKills()} source={statusSource()} now={now} />, { columns, rows });

describe('the tab bar', () => {
  it('keeps the kill count whole at 80 columns: the tabs close up, named in full, and the hints make room', async () => {
    const app = await renderAt(80);
    const frame = await app.until((f) => f.includes('Board ·'), 'the board');
    // spaced, the tabs take 77 columns (10 + 12 + 14 + 15 + 14 + 12) and `!! KILL x3 ` 11 more: 88 > 80; one space
    // apart 66 (9 + 9 + 11 + 11 + 11 + 9, and a space after each) and the kill 11: 77, no room for the hints' 16
    expect(lines(frame)[0]).toBe('[1 Board] 2 Signals 3 Positions 4 Alerts(4) 5 Forecasts 6 History !! KILL x3');
    await app.pane('4');
    // the tab shown takes its brackets: 79
    expect(lines(app.frame())[0]).toBe('1 Board 2 Signals 3 Positions [4 Alerts(4)] 5 Forecasts 6 History !! KILL x3');
    app.unmount();
  });

  it('shortens the titles to three letters where the full ones do not fit (70 columns)', async () => {
    const app = await renderAt(70);
    const frame = await app.until((f) => f.includes('Board ·'), 'the board');
    // one space apart 77 columns with the kill, over 70; at three letters 51 (8 + 8 + 8 + 11 + 8 + 8) and the kill
    // 11: 62, no room for the hints' 16
    expect(lines(frame)[0]).toBe('[1 Boa]  2 Sig   3 Pos   4 Ale(4)   5 For   6 His  !! KILL x3');
    app.unmount();
  });

  it('keeps it at the narrowest screen drawn (40 columns): the tabs go down to their numbers', async () => {
    const app = await renderAt(40);
    const frame = await app.until((f) => f.includes('!! KILL'), 'the tab bar');
    // at three letters 51 columns, over 40; by number 27 (4 + 4 + 4 + 7 + 4 + 4) and the kill 11: 38
    expect(lines(frame)[0]).toBe('[1]  2   3   4(4)   5   6  !! KILL x3');
    app.unmount();
  });

  it('names each pane in full when there is room, the kill count after them', async () => {
    const app = await renderAt(120, 30);
    const frame = await app.until((f) => f.includes('Board ·'), 'the board');
    expect(lines(frame)[0]).toBe(
      '[1 Board]  2 Signals   3 Positions   4 Alerts (4)   5 Forecasts   6 History  !! KILL x3   ? help  q quit',
    );
    app.unmount();
  });
});
