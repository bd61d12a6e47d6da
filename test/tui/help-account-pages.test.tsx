import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MonitorApp } from '../../src/tui/render-monitor.js';
import { type Filled, fillCache, KEYS, LIVE, now, renderTui, statusSource } from './fixtures.js';

let filled: Filled;
beforeAll(async () => {
  filled = await fillCache();
});
afterAll(() => filled?.close());

describe('help overlay in demo mode', () => {
  it("shows the demo service's account pages and the file its admin token is kept in, at the end of the help", async () => {
    const accountPages = {
      url: 'http://127.0.0.1:40123/account/',
      tokenFile: '/home/trader/.local/share/svc-monitor/demo/server/admin-token',
    };
    const source = statusSource({ ...LIVE, mode: 'demo', host: '127.0.0.1:40123', accountPages });
    const app = await renderTui(<MonitorApp cache={filled.copy()} source={source} now={now} />);
    await app.press('?');
    // the help is longer than the screen: page down until its last section shows
    for (let i = 0; i < 10 && !app.frame().includes('admin token in'); i++) await app.press(KEYS.pageDown);
    const frame = app.frame();
    expect(frame).toContain('Account pages of the demo service');
    expect(frame).toMatch(/ {2}address {13}http:\/\/127\.0\.0\.1:40123\/account\//);
    expect(frame).toContain('  admin token in      /home/trader/.local/share/svc-monitor/demo/server/admin-token');
    app.unmount();
  });

  it('has no such section outside the demo', async () => {
    const app = await renderTui(<MonitorApp cache={filled.copy()} source={statusSource()} now={now} />);
    await app.press('?');
    for (let i = 0; i < 10; i++) await app.press(KEYS.pageDown);
    expect(app.frame()).toContain('Reading the screen');
    expect(app.frame()).not.toContain('Account pages');
    app.unmount();
  });
});
