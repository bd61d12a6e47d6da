import { afterAll, describe, expect, it } from 'vitest';
import { MonitorApp } from '../../src/tui/render-monitor.js';
import { handCaches } from '../helpers/cache-builder.js';
import { monitorScene, now } from '../helpers/monitor-scene.js';
import { KEYS, lines, readsSettled, renderTui, statusSource } from './fixtures.js';

const caches = handCaches('tui-key-reads-');
afterAll(() => caches.close());

const selected = (frame: string) => lines(frame).find((l) => l.startsWith('›')) ?? '';

/**
 * Issue 21 item 6, no key is ever lost: keys that come in separate reads before the screen has re-rendered (a busy
 * machine reads Esc and the j typed after it in one turn of the event loop) each act on the screen the key before
 * made. The fake terminal hands each write to Ink at once, so two writes in a row are two reads before any render.
 */
describe('keys in separate reads before a render', () => {
  it('Esc closing a detail, then j: the j moves the list', async () => {
    const app = await renderTui(<MonitorApp cache={monitorScene(caches.open())} source={statusSource()} now={now} />);
    await app.pane('4');
    await app.until((f) => selected(f).includes('KILL London'), 'the first alert selected');
    await app.press(KEYS.enter);
    await app.until((f) => f.includes('kind     '), 'the detail');
    // two reads, no render between them
    app.stdin.write(KEYS.escape);
    app.stdin.write('j');
    // the scene's second alert is Paris' kill
    const frame = await app.until((f) => selected(f).includes('KILL Paris'), 'the second alert selected');
    expect(frame).not.toContain('kind     ');
    app.unmount();
  });

  it('Enter, Esc and j in three reads: the detail opens and closes, and the j moves the list', async () => {
    const app = await renderTui(<MonitorApp cache={monitorScene(caches.open())} source={statusSource()} now={now} />);
    await app.pane('4');
    await app.until((f) => selected(f).includes('KILL London'), 'the first alert selected');
    app.stdin.write(KEYS.enter);
    app.stdin.write(KEYS.escape);
    app.stdin.write('j');
    const frame = await app.until((f) => selected(f).includes('KILL Paris'), 'the second alert selected');
    expect(frame).not.toContain('kind     ');
    app.unmount();
  });

  it('1 and Enter in one read (typed faster than a frame): the board, then its city opened on Forecasts', async () => {
    const app = await renderTui(<MonitorApp cache={monitorScene(caches.open())} source={statusSource()} now={now} />);
    await app.pane('4');
    await app.until((f) => selected(f).includes('KILL London'), 'the first alert selected');
    // one write: Ink hands `1\r` over as one input, which matched no key and was lost whole
    app.stdin.write(`1${KEYS.enter}`);
    await app.until((f) => (f.split('\n')[0] ?? '').includes('[5 Forecasts]'), 'Forecasts on the tab bar');
    app.unmount();
  });

  it('j, j, j in three reads: three rows down', async () => {
    const app = await renderTui(<MonitorApp cache={monitorScene(caches.open())} source={statusSource()} now={now} />);
    await app.pane('4');
    await app.until((f) => selected(f).includes('KILL London'), 'the first alert selected');
    app.stdin.write('j');
    app.stdin.write('j');
    app.stdin.write('j');
    // KILL London, KILL Paris, REJECTED, FAILING: the fourth row
    await app.until((f) => selected(f).startsWith('› !  FAILING'), 'the fourth alert selected');
    app.unmount();
  });

  /**
   * A key that changes nothing on the screen still ends in a commit of the keypress queue, so the key after it is
   * handled at once: were it left waiting for a commit, only the clock's tick would draw it (the soak's ~1 s keys were
   * j and k on an empty History table, which rightly draw nothing). The tick here is an hour away, so only the keys
   * can make the frame awaited.
   */
  it('j and k on an empty table, then a pane key: the pane is drawn with no clock tick', async () => {
    const cache = monitorScene(caches.open(), { history: false });
    const app = await renderTui(<MonitorApp cache={cache} source={statusSource()} now={now} tickMs={3_600_000} />);
    await app.pane('6');
    await app.until((f) => f.includes('No rows cached here'), 'the empty History table');
    await readsSettled(cache);
    // one read each, no render between them: j and k move nothing in a table without rows
    app.stdin.write('j');
    app.stdin.write('k');
    app.stdin.write('1');
    await app.pane('1');
    // the same after a key handled on its own: k, then nothing read or drawn, then the pane key
    await app.pane('6');
    await app.until((f) => f.includes('No rows cached here'), 'the empty History table again');
    await readsSettled(cache);
    app.stdin.write('k');
    await readsSettled(cache);
    await app.pane('4');
    app.unmount();
  });
});
