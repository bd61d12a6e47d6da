import { afterAll, describe, expect, it } from 'vitest';

// colour support is decided when chalk loads: force it on first, so that "no escape codes" is something the
// NO_COLOR path achieves rather than a terminal that never had colour (this file runs in its own process)
process.env.FORCE_COLOR = '1';
const { MonitorApp } = await import('../../src/tui/render-monitor.js');
const { renderTui, statusSource } = await import('./fixtures.js');
const { handCaches } = await import('../helpers/cache-builder.js');
const { monitorScene, now } = await import('../helpers/monitor-scene.js');

const caches = handCaches('tui-no-color-');
afterAll(() => {
  caches.close();
  delete process.env.NO_COLOR;
});
/** The hand-built scene of helpers/monitor-scene.ts: kills, failing and stale streams, open positions. */
const scene = () => monitorScene(caches.open());

// biome-ignore lint/suspicious/noControlCharactersInRegex: looking for the escape character itself
const ESCAPE = /\u001b\[/;

describe('NO_COLOR', () => {
  it('with colour on, the frame is styled (the check below can fail)', async () => {
    const app = await renderTui(<MonitorApp cache={scene()} source={statusSource()} now={now} noColor={false} />);
    await app.pane('4');
    expect(app.lastFrame()).toMatch(ESCAPE);
    app.unmount();
  });

  it('NO_COLOR in the environment: not one escape code, and every meaning still in the text', async () => {
    process.env.NO_COLOR = '1';
    const app = await renderTui(<MonitorApp cache={scene()} source={statusSource()} now={now} />);
    await app.pane('2');
    const signals = app.lastFrame() ?? '';
    expect(signals).not.toMatch(ESCAPE);
    expect(signals).toContain('[2 Signals]');
    expect(signals).toMatch(/^› /m);
    expect(signals).toMatch(/cur 3m\* fc 30s! .* lock 5m!/);
    await app.pane('4');
    const alerts = app.lastFrame() ?? '';
    expect(alerts).not.toMatch(ESCAPE);
    expect(alerts).toMatch(/^› !! KILL/m);
    expect(alerts).toContain('!  FAILING');
    await app.pane('3');
    const positions = app.lastFrame() ?? '';
    expect(positions).not.toMatch(ESCAPE);
    // New York's no24 record, first under its city-day's header: 20 shares at the 0.600 NO quote, 12.00 less its
    // 10.00 stake
    expect(positions).toMatch(/ New York City 2026-11-21 .*\n +no24 +NO +50-51°F .* 0\.600m +10\.00 +\+2\.00$/m);
    app.unmount();
  });
});
