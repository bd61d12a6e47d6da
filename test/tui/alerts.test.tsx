import { afterAll, describe, expect, it } from 'vitest';
import type { Cache } from '../../src/cache/index.js';
import { MonitorApp } from '../../src/tui/render-monitor.js';
import { handCaches } from '../helpers/cache-builder.js';
import { storedAlerts } from '../helpers/cache-rows.js';
import { KILLED_PARIS, monitorScene, now } from '../helpers/monitor-scene.js';
import { KEYS, LIVE, lines, renderTui, statusSource } from './fixtures.js';

const unacknowledged = (cache: Cache) => storedAlerts(cache).filter((a) => a.acknowledged_at === null);

const caches = handCaches('tui-alerts-');
afterAll(() => caches.close());
/** The hand-built scene of helpers/monitor-scene.ts: two unacknowledged kills, a rejected delivery, three bad streams. */
const scene = () => monitorScene(caches.open());

/** The selected row of a frame. */
const selected = (frame: string) => lines(frame).find((l) => l.startsWith('›')) ?? '';

/** The alert rows of a frame, each reduced to its marker column. */
const markers = (frame: string) =>
  lines(frame)
    .filter((l) => /^[› ] (!!|! |ok)/.test(l))
    .map((l) => l.slice(2, 15).trim());

describe('Alerts pane', () => {
  it('puts kills first and says KILL in text, then rejected webhooks, then failing and stale streams', async () => {
    const cache = scene();
    const app = await renderTui(<MonitorApp cache={cache} source={statusSource()} now={now} />);
    const frame = await app.pane('4');
    // the scene's two killed picks (London 11-20, Paris 11-19) and its rejected delivery
    expect(frame).toContain('3 unacknowledged');
    expect(frame).toContain('!! 2 KILLS to act on');
    expect(markers(frame)).toEqual(['!! KILL', '!! KILL', '!  REJECTED', '!  FAILING', '!  STALE', '!  STALE']);
    const rows = lines(frame);
    // newest kill first (London's, 11-20 15:30Z), with the message the inbox wrote (`KILL london 2026-11-20: ...`),
    // its city by name as the board names it: city, date, SELL AT MARKET, legs
    expect(rows.find((l) => /^[› ] !! KILL/.test(l))).toContain(
      '11-20 15:30Z KILL London 2026-11-20: SELL AT MARKET: legs A 48-49°F, B 50-51°F.',
    );
    expect(rows.find((l) => l.includes('FAILING'))).toContain(
      'sync forecasts (fc) last good sync 30s ago: service unreachable',
    );
    // the worst first: failing, then ten polls behind (fusion locks), then three (current)
    expect(rows.filter((l) => l.includes('STALE')).map((l) => l.match(/sync (\S+)/)?.[1])).toEqual([
      'fusion-locks',
      'current',
    ]);
    expect(rows.find((l) => l.includes('STALE') && l.includes('current'))).toContain('last good sync 3m ago');
    app.unmount();
  });

  it('keeps the selection on its alert when a new one arrives above it', async () => {
    const cache = scene();
    const app = await renderTui(<MonitorApp cache={cache} source={statusSource()} now={now} />);
    await app.pane('4');
    // down to the older kill (Paris 11-19), the second row
    await app.press(KEYS.down);
    let frame = await app.until((f) => selected(f).includes('KILL Paris'), 'the Paris kill selected');
    // a kill arrives, newest: it is listed first, and the selection stays on Paris's, now the third row
    cache.alerts.add({
      severity: 'high',
      kind: 'kill',
      ref: 'kill-new',
      city_id: 'rome',
      created_at: '2026-11-20T16:00:00Z',
      message: 'KILL rome 2026-11-20: SELL AT MARKET: legs A 15°C, B 16°C.',
    });
    frame = await app.until((f) => markers(f).filter((m) => m === '!! KILL').length === 3, 'the third kill');
    expect(lines(frame).filter((l) => /^[› ] !! KILL/.test(l))[0]).toContain('KILL rome 2026-11-20'); // a city the cache does not list keeps its id
    expect(selected(frame)).toContain('KILL Paris');
    // and a acknowledges that one, not the row now where it was
    await app.press('a');
    await app.until((f) => f.includes('3 unacknowledged'), 'one acknowledged');
    expect(unacknowledged(cache).map((a) => a.city_id)).toEqual(expect.arrayContaining(['london', 'rome']));
    expect(unacknowledged(cache).some((a) => a.city_id === 'paris' && a.kind === 'kill')).toBe(false);
    app.unmount();
  });

  it('shows a rejected key, an unreachable service and a listener that went down, as the CLI reports them', async () => {
    const cache = scene();
    const source = statusSource();
    const app = await renderTui(<MonitorApp cache={cache} source={source} now={now} />);
    await app.pane('4');
    source.set({
      ...LIVE,
      connection: { state: 'auth-rejected', message: 'HTTP 401' },
      listener: { ...LIVE.listener, state: 'down' },
    });
    const frame = await app.until((f) => f.includes('!! LISTENER'), 'the listener alert');
    const m = markers(frame);
    // after the two kills
    expect(m.indexOf('!! KEY')).toBe(2);
    expect(m.indexOf('!  REJECTED')).toBe(3);
    expect(m.at(-1)).toBe('!! LISTENER');
    expect(frame).toContain('the service rejected the API key (401): HTTP 401; showing cached data');
    expect(frame).toContain('webhook listener at http://127.0.0.1:8788/ is down');
    // offline, stale streams are expected, not alarming
    source.set({ ...LIVE, mode: 'offline', connection: { state: 'offline' } });
    const offline = await app.until((f) => !f.includes('!! KEY'));
    expect(markers(offline)).not.toContain('!  STALE');
    app.unmount();
  });

  it('a acknowledges the selected alert: the count drops everywhere and the alert moves to the acknowledged end', async () => {
    const cache = scene();
    const app = await renderTui(<MonitorApp cache={cache} source={statusSource()} now={now} coalesceMs={20} />);
    // the second kill: Paris'
    await app.pane('4');
    await app.press('j');
    await app.until((f) => selected(f).includes('KILL Paris'), 'the second kill selected');
    const second = storedAlerts(cache).find((a) => a.kind === 'kill' && a.ref === KILLED_PARIS);
    await app.press('a');
    const frame = await app.until((f) => f.includes('2 unacknowledged'), 'the acknowledgement');
    expect(lines(frame)[0]).toContain('4 Alerts (2)');
    expect(frame).toContain('!! 1 KILL to act on');
    expect(markers(frame).filter((m) => m === '!! KILL')).toHaveLength(1);
    expect(markers(frame).at(-1)).toBe('ok ACKED');
    expect(lines(frame).find((l) => l.includes('ok ACKED'))).toContain('KILL Paris 2026-11-19');
    expect(unacknowledged(cache).map((a) => a.id)).not.toContain(second?.id);
    expect(storedAlerts(cache).find((a) => a.id === second?.id)?.acknowledged_at).toBe('2026-11-21T15:00:00.000Z');
    app.unmount();
  });

  it('a on a live condition explains that it clears itself; Enter shows an alert in full', async () => {
    const cache = scene();
    const app = await renderTui(<MonitorApp cache={cache} source={statusSource()} now={now} />);
    await app.pane('4');
    // past the two kills and the rejected delivery: the failing stream
    for (const [i, marker] of ['!! KILL', '!  REJECTED', '!  FAILING'].entries()) {
      await app.press('j');
      await app.until((f) => selected(f).startsWith(`› ${marker}`), `row ${i + 2} selected`);
    }
    await app.press('a');
    const refused = await app.until((f) => f.includes('a live condition clears itself once it is fixed'));
    expect(refused).toContain('3 unacknowledged');
    await app.press('g');
    await app.until((f) => selected(f).includes('KILL London'), 'the first alert selected');
    await app.press(KEYS.enter);
    const detail = await app.until((f) => f.includes('kind     '), 'the detail');
    expect(detail).toContain('kind     kill (high)');
    // the city by its name, its id beside it (the message stored, and its export, keep the id)
    expect(detail).toContain('city     London (london)');
    expect(detail).toContain('KILL London 2026-11-20: SELL AT MARKET');
    const exported = cache.export.rows('alerts').map((json) => JSON.parse(json) as { kind: string; message: string });
    expect(exported.find((a) => a.kind === 'kill')?.message).toMatch(/^KILL london 2026-11-20: SELL AT MARKET/);
    expect(detail).toContain('status   unacknowledged (a)');
    expect(detail).toContain('SELL AT MARKET');
    app.unmount();
  });
});
