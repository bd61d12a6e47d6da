import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Cache } from '../../src/cache/index.js';
import { MonitorApp } from '../../src/tui/render-monitor.js';
import { storedAlerts } from '../helpers/cache-rows.js';
import { type Filled, fillCache, KEYS, LIVE, lines, now, renderTui, statusSource } from './fixtures.js';

const unacknowledged = (cache: Cache) => storedAlerts(cache).filter((a) => a.acknowledged_at === null);

let filled: Filled;
beforeAll(async () => {
  filled = await fillCache();
});
afterAll(() => filled?.close());

/** The alert rows of a frame, each reduced to its marker column. */
const markers = (frame: string) =>
  lines(frame)
    .filter((l) => /^[› ] (!!|! |ok)/.test(l))
    .map((l) => l.slice(2, 15).trim());

describe('Alerts pane', () => {
  it('puts kills first and says KILL in text, then rejected webhooks, then failing and stale streams', async () => {
    const cache = filled.copy();
    const app = await renderTui(<MonitorApp cache={cache} source={statusSource()} now={now} />);
    await app.press('4');
    const frame = app.frame();
    // the 30-day world killed two insurance picks (London 11-08, Madrid 11-14), the fixture adds one rejected delivery
    expect(frame).toContain('3 unacknowledged');
    expect(frame).toContain('!! 2 KILLS to act on');
    expect(markers(frame)).toEqual(['!! KILL', '!! KILL', '!  REJECTED', '!  FAILING', '!  STALE', '!  STALE']);
    const rows = lines(frame);
    const kills = unacknowledged(cache).filter((a) => a.kind === 'kill');
    // newest kill first, each with the message the inbox wrote (city, date, SELL AT MARKET, legs)
    expect(rows.find((l) => /^[› ] !! KILL/.test(l))).toContain((kills[0]?.message ?? '').slice(0, 60));
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

  it('shows a rejected key, an unreachable service and a listener that went down, as the CLI reports them', async () => {
    const cache = filled.copy();
    const source = statusSource();
    const app = await renderTui(<MonitorApp cache={cache} source={source} now={now} />);
    await app.press('4');
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
    const cache = filled.copy();
    const app = await renderTui(<MonitorApp cache={cache} source={statusSource()} now={now} coalesceMs={20} />);
    await app.press('4', 'j');
    const second = unacknowledged(cache).filter((a) => a.kind === 'kill')[1];
    await app.press('a');
    const frame = await app.until((f) => f.includes('2 unacknowledged'), 'the acknowledgement');
    expect(lines(frame)[0]).toContain('4 Alerts (2)');
    expect(frame).toContain('!! 1 KILL to act on');
    expect(markers(frame).filter((m) => m === '!! KILL')).toHaveLength(1);
    expect(markers(frame).at(-1)).toBe('ok ACKED');
    expect(unacknowledged(cache).map((a) => a.id)).not.toContain(second?.id);
    expect(storedAlerts(cache).find((a) => a.id === second?.id)?.acknowledged_at).toBe(now().toISOString());
    app.unmount();
  });

  it('a on a live condition explains that it clears itself; Enter shows an alert in full', async () => {
    const cache = filled.copy();
    const app = await renderTui(<MonitorApp cache={cache} source={statusSource()} now={now} />);
    await app.press('4');
    // past the two kills and the rejected delivery: the failing stream
    for (let i = 0; i < 3; i++) await app.press('j');
    await app.press('a');
    expect(app.frame()).toContain('a live condition clears itself once it is fixed');
    expect(app.frame()).toContain('3 unacknowledged');
    await app.press('g', KEYS.enter);
    const detail = app.frame();
    expect(detail).toContain('kind     kill (high)');
    expect(detail).toContain('status   unacknowledged (a)');
    expect(detail).toContain('SELL AT MARKET');
    app.unmount();
  });
});
