import { afterAll, describe, expect, it } from 'vitest';
import { pruneCache } from '../../src/cache/index.js';
import { MonitorApp } from '../../src/tui/render-monitor.js';
import { fillTwentyDays } from '../cache/twenty-days.js';
import { handCaches } from '../helpers/cache-builder.js';
import { KEYS, renderTui, statusSource } from './fixtures.js';

const caches = handCaches('tui-hourly-');
afterAll(() => caches.close());

/**
 * Time travel on a day retention thinned (DESIGN 4): the twenty hand-built days of cache/twenty-days.ts pruned as of
 * 2026-11-25T12:12Z with 14 days kept whole (cutoff 2026-11-11T12:12Z). New York is UTC-5.
 */
const now = () => new Date('2026-11-25T12:12:00Z');

describe('time travel on a thinned day', () => {
  it('says hourly and steps by the whole hour', async () => {
    const { cache } = caches.open();
    fillTwentyDays(cache);
    await pruneCache(cache, { nowMs: now().getTime(), detailDays: 14 });
    // 2026-11-06T15:20Z is 10:20 in New York
    const app = await renderTui(
      <MonitorApp
        cache={cache}
        source={statusSource()}
        now={now}
        initialCity="nyc"
        replayAt={Date.parse('2026-11-06T15:20:00Z')}
      />,
    );
    const banner = (local: string, date = '2026-11-06') =>
      app.until((f) => f.includes(`REPLAY ${date} ${local} `), `the banner at ${local}`);
    expect(await banner('10:20')).toMatch(/hourly · /);
    // → to the next whole hour (16:00Z, 11:00 local), then an hour on; ← back to the whole hour before
    await app.press(KEYS.right);
    await banner('11:00');
    await app.press(KEYS.right);
    await banner('12:00');
    await app.press(KEYS.left);
    expect(await banner('11:00')).toMatch(/hourly · /);
    app.unmount();
  });
});
