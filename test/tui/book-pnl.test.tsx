import { afterAll, describe, expect, it } from 'vitest';
import { MonitorApp } from '../../src/tui/render-monitor.js';
import { HandCache, handCaches, no24 } from '../helpers/cache-builder.js';
import { monitorScene, now } from '../helpers/monitor-scene.js';
import { lines, renderTui, statusSource } from './fixtures.js';

const caches = handCaches('tui-book-pnl-');
afterAll(() => caches.close());

describe("History's book P&L", () => {
  it('gives realised P&L today, this week and all time, and the equity curve by settled day', async () => {
    const cache = monitorScene(caches.open());
    // a loss the week before (2026-11-21 is a Saturday: the week began Monday 11-16): London's 11-13 market settles at
    // its midnight, 11-14 00:00Z; 20 shares at 0.50, 10.00 lost
    new HandCache(cache).records(
      'no24',
      no24({
        id: 93,
        city_id: 'london',
        local_date: '2026-11-13',
        bucket_label: '50-51°F',
        shares: 20,
        ask: 0.5,
        outcome: 'loss',
      }),
    );
    const app = await renderTui(<MonitorApp cache={cache} source={statusSource()} now={now} />, {
      columns: 120,
      rows: 60,
    });
    await app.pane('6');
    await app.press('s');
    const frame = await app.until((f) => f.includes('EQUITY CURVE'), 'the book P&L');
    const rows = lines(frame);
    // realised at each market's settlement (the local midnight after its day) or an edge trade's exit, by UTC date:
    //   11-14: #93 london 11-13 -10.00 (00:00Z)
    //   11-19: #92 paris 11-19 +1.00 (23:00Z)
    //   11-20: #191 paris 11-20 -10.00 (23:00Z), lock L-nyc-1119 +15.00 (05:00Z), edge #7000 exit 11.45 - 10.00 = +1.45
    //          (13:30Z): +6.45
    //   11-21: #90 nyc +2.50, #190 nyc +30.00, #301 nyc -5.00, lock L-nyc-1120 -8.00 (05:00Z); #91 london -10.00, lock
    //          L-london-1120 +10.00 (00:00Z): +19.50
    // today 11-21 +19.50 (6); this week 11-16.. +1.00 + 6.45 + 19.50 = +26.95 (10); all -10.00 + 26.95 = +16.95 (11)
    expect(rows.find((l) => l.includes('today'))).toMatch(
      /^ {2}today \+19\.50 \(6\) · this week \+26\.95 \(10\) · all time \+16\.95 \(11\)$/,
    );
    // cumulative -10.00, -9.00, -2.55, +16.95; bars of 20 cells for the largest, 16.95: 10/16.95 x 20 = 11.8 -> 12,
    // 9 -> 10.6 -> 11, 2.55 -> 3.0 -> 3, all 20 to the right
    const curve = (date: string) => rows.find((l) => l.startsWith(`  ${date} `));
    const bar = (left: number, right: number) => `${' '.repeat(20 - left)}${'█'.repeat(left)}│${'█'.repeat(right)}`;
    expect(curve('2026-11-14')).toBe(`  2026-11-14    -10.00      -10.00  ${bar(12, 0)}`);
    expect(curve('2026-11-19')).toBe(`  2026-11-19     +1.00       -9.00  ${bar(11, 0)}`);
    expect(curve('2026-11-20')).toBe(`  2026-11-20     +6.45       -2.55  ${bar(3, 0)}`);
    expect(curve('2026-11-21')).toBe(`  2026-11-21    +19.50      +16.95  ${bar(0, 20)}`);
    app.unmount();
  });
});
