import { afterAll, describe, expect, it } from 'vitest';
import { MonitorApp } from '../../src/tui/render-monitor.js';
import { handCaches } from '../helpers/cache-builder.js';
import { monitorScene, now } from '../helpers/monitor-scene.js';
import { KEYS, LIVE, renderTui, statusSource } from './fixtures.js';

const caches = handCaches('tui-help-');
afterAll(() => caches.close());
const scene = () => monitorScene(caches.open());

describe('help overlay in demo mode', () => {
  it("shows the demo service's account pages and the file its admin token is kept in, at the end of the help", async () => {
    const accountPages = {
      url: 'http://127.0.0.1:40123/account/',
      tokenFile: '/home/trader/.local/share/svc-monitor/demo/server/admin-token',
    };
    const source = statusSource({ ...LIVE, mode: 'demo', host: '127.0.0.1:40123', accountPages });
    const app = await renderTui(<MonitorApp cache={scene()} source={source} now={now} />);
    await app.press('?');
    await app.until((f) => f.includes('Tab / Shift-Tab'), 'the help');
    // the help is longer than the screen: page down until its last section shows
    let frame = app.frame();
    for (let i = 0; i < 10 && !frame.includes('admin token in'); i++) {
      await app.press(KEYS.pageDown);
      frame = await app.until((f) => f !== frame, 'the next page of the help');
    }
    expect(frame).toContain('Account pages of the demo service');
    expect(frame).toMatch(/ {2}address {13}http:\/\/127\.0\.0\.1:40123\/account\//);
    expect(frame).toContain('  admin token in      /home/trader/.local/share/svc-monitor/demo/server/admin-token');
    app.unmount();
  });

  it('has no such section outside the demo', async () => {
    const app = await renderTui(<MonitorApp cache={scene()} source={statusSource()} now={now} />);
    await app.press('?');
    await app.until((f) => f.includes('Tab / Shift-Tab'), 'the help');
    for (let i = 0; i < 10; i++) await app.press(KEYS.pageDown);
    // the help's last section, and nothing after it
    const end = await app.until((f) => f.includes('Reading the screen'), 'the end of the help');
    expect(end).not.toContain('Account pages');
    app.unmount();
  });
});
