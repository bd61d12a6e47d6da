import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// colour support is decided when chalk loads: force it on first, so that "no escape codes" is something the
// NO_COLOR path achieves rather than a terminal that never had colour (this file runs in its own process)
process.env.FORCE_COLOR = '1';
const { MonitorApp } = await import('../../src/tui/render-monitor.js');
const { fillCache, now, renderTui, statusSource } = await import('./fixtures.js');
type Filled = Awaited<ReturnType<typeof fillCache>>;

let filled: Filled;
beforeAll(async () => {
  filled = await fillCache();
});
afterAll(() => {
  filled?.close();
  delete process.env.NO_COLOR;
});

// biome-ignore lint/suspicious/noControlCharactersInRegex: looking for the escape character itself
const ESCAPE = /\u001b\[/;

describe('NO_COLOR', () => {
  it('with colour on, the frame is styled (the check below can fail)', async () => {
    const app = await renderTui(<MonitorApp cache={filled.copy()} source={statusSource()} now={now} noColor={false} />);
    await app.press('4');
    expect(app.lastFrame()).toMatch(ESCAPE);
    app.unmount();
  });

  it('NO_COLOR in the environment: not one escape code, and every meaning still in the text', async () => {
    process.env.NO_COLOR = '1';
    const app = await renderTui(<MonitorApp cache={filled.copy()} source={statusSource()} now={now} />);
    await app.press('2');
    const signals = app.lastFrame() ?? '';
    expect(signals).not.toMatch(ESCAPE);
    expect(signals).toContain('[2 Signals]');
    expect(signals).toMatch(/^› /m);
    expect(signals).toMatch(/cur 3m\* fc 30s! .* lock 5m!/);
    await app.press('4');
    const alerts = app.lastFrame() ?? '';
    expect(alerts).not.toMatch(ESCAPE);
    expect(alerts).toMatch(/^› !! KILL/m);
    expect(alerts).toContain('!  FAILING');
    await app.press('3');
    const positions = app.lastFrame() ?? '';
    expect(positions).not.toMatch(ESCAPE);
    expect(positions).toMatch(/ [+-]\d+\.\d\d$/m);
    app.unmount();
  });
});
