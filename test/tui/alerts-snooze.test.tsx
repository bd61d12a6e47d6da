import { afterAll, describe, expect, it } from 'vitest';
import type { Cache } from '../../src/cache/index.js';
import { MonitorApp } from '../../src/tui/render-monitor.js';
import { handCaches } from '../helpers/cache-builder.js';
import { monitorScene, now } from '../helpers/monitor-scene.js';
import { lines, renderTui, statusSource } from './fixtures.js';

const caches = handCaches('tui-snooze-');
afterAll(() => caches.close());
/** The hand-built scene of helpers/monitor-scene.ts: three unacknowledged alerts (two kills, a rejected delivery). */
const scene = () => monitorScene(caches.open());

/** A trader alert of each kind, as the rules write them (alerts/market-alerts.ts), the edge newest. */
function addTraderAlerts(cache: Cache): void {
  const at = '2026-11-21T14:30:00.000Z';
  cache.alerts.raiseMarketAlerts({
    alerts: [
      {
        severity: 'high',
        kind: 'dying-bucket',
        ref: 'london|2026-11-21|50-51°F',
        city_id: 'london',
        created_at: at,
        message:
          'london 2026-11-21: held bucket 50-51°F died, METAR high so far 51.8°F settles at 52°F or more; ' +
          'YES 256.44 shares, 25.00 USD staked (yescore 384)',
      },
      {
        severity: 'warning',
        kind: 'breakthrough',
        ref: 'london|2026-11-21',
        city_id: 'london',
        created_at: at,
        message:
          "london 2026-11-21: METAR high so far 51.8°F is above every model's Tmax (warmest 51.4°F): forecast breakthrough",
      },
      {
        severity: 'info',
        kind: 'edge',
        ref: 'rome|2026-11-21|16°C|YES',
        city_id: 'rome',
        created_at: at,
        message: 'rome 2026-11-21: edge +87.4 points on YES 16°C at 0.12 on mkta (model 100.0%)',
      },
    ],
    fired: [],
  });
}

const selected = (frame: string) => lines(frame).find((l) => l.startsWith('›')) ?? '';

/** Presses j until the selected row holds `text`, each move waited for; the frame then. */
async function selectDown(app: Awaited<ReturnType<typeof renderTui>>, text: string): Promise<string> {
  for (let i = 0; i < 20; i++) {
    const frame = app.frame();
    if (selected(frame).includes(text)) return frame;
    await app.press('j');
    await app.until((f) => selected(f) !== selected(frame), 'the selection to move');
  }
  throw new Error(`no row holding ${text} below the selection:\n${app.frame()}`);
}

describe('trader alerts in the Alerts pane', () => {
  it('are listed in readable words, counted on the tab, and z snoozes the selected alert’s city', async () => {
    const cache = scene();
    addTraderAlerts(cache);
    const app = await renderTui(<MonitorApp cache={cache} source={statusSource()} now={now} snoozeMinutes={15} />);
    let frame = await app.pane('4');
    frame = await app.until((f) => f.includes('!  EDGE'), 'the edge alert');
    // the scene's three and these three, on the tab bar
    expect(frame).toContain('[4 Alerts (6)]');
    expect(frame).toContain('a acknowledge · A all · z snooze city · b board · Enter detail');
    const rows = lines(frame);
    expect(rows.find((l) => l.includes('!  EDGE'))).toContain(
      'rome 2026-11-21: edge +87.4 points on YES 16°C at 0.12 on mkta (model 100.0%)',
    );
    expect(rows.find((l) => l.includes('!  BREAKTHRU'))).toContain("is above every model's Tmax");
    expect(rows.find((l) => l.includes('!! DEAD'))).toContain('held bucket 50-51°F died');
    expect(frame).not.toContain('snoozed (no notification)');

    // down to the edge alert (the kills and conditions come first), then z
    frame = await selectDown(app, '!  EDGE');
    expect(selected(frame)).toContain('!  EDGE');
    await app.press('z');
    frame = await app.until((f) => f.includes('snoozed (no notification)'), 'the snooze line');
    // until when, on the city's clock (rome is not a city the cache lists: UTC), 15:00Z + 15 min
    expect(frame).toContain('snoozed (no notification): rome until 15:15Z');
    expect(frame).toContain('rome snoozed until 15:15Z (no notification)');
    // kept in the cache, on the market's clock (DESIGN 4): 15 minutes from the monitor's now
    const at = now().getTime();
    expect(cache.alerts.snoozed(at)).toEqual([{ city_id: 'rome', until_ms: at + 15 * 60_000 }]);
    // the alerts stay listed
    expect(frame).toContain('!  EDGE');
    app.unmount();
  });

  it('say why nothing is snoozed on an alert about no city, and show the snoozed cities at 80x24', async () => {
    const cache = scene();
    addTraderAlerts(cache);
    const app = await renderTui(<MonitorApp cache={cache} source={statusSource()} now={now} />);
    await app.pane('4');
    // the rejected webhook's alert names no city
    let frame = await selectDown(app, 'REJECTED');
    expect(selected(frame)).toContain('REJECTED');
    await app.press('z');
    await app.until((f) => f.includes('no city to snooze'), 'the refusal');
    expect(cache.alerts.snoozed(now().getTime())).toEqual([]);

    // the dead bucket's city, at the default 60 minutes
    frame = await selectDown(app, '!! DEAD');
    await app.press('z');
    await app.resize(80, 24);
    // 15:00Z + 60 min, London's clock in November
    frame = await app.until(
      (f) => f.includes('snoozed (no notification): London until 16:00 local'),
      'the snooze line',
    );
    expect(lines(frame).every((l) => l.length <= 80)).toBe(true);
    expect(lines(frame)[2]).toBe('snoozed (no notification): London until 16:00 local');
    app.unmount();
  });
});
