import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCache } from '../../src/cache/index.js';
import { HandCache, PARIS, ROME } from '../helpers/cache-builder.js';
import { storedAlerts } from '../helpers/cache-rows.js';
import { startTui, type TuiProcess } from './terminal.js';

/**
 * The Alerts pane's keys in a real pseudo-terminal (issue 44 item 5), offline on a cache written by hand: an EDGE of
 * Paris stamped 12:30Z stored after a DEAD of Rome stamped 12:33Z (found later), and an older EDGE of Rome at 11:00Z.
 */
const root = mkdtempSync(join(tmpdir(), 'svc-e2e-alert-keys-'));
const db = join(root, 'cache.db');
const env = { XDG_DATA_HOME: join(root, 'data'), XDG_CONFIG_HOME: join(root, 'config') };
const running: TuiProcess[] = [];
beforeAll(() => {
  const h = new HandCache(openCache(db)).cities(PARIS, ROME);
  const add = (kind: 'dying-bucket' | 'edge', city: string, at: string, message: string) =>
    h.cache.alerts.add({ severity: kind === 'edge' ? 'info' : 'high', kind, city_id: city, created_at: at, message });
  add(
    'edge',
    'rome',
    '2026-11-24T11:00:00Z',
    'rome 2026-11-24: edge +9.1 points on YES 20°C at 0.30 on mkta (model 40.1%)',
  );
  add('dying-bucket', 'rome', '2026-11-24T12:33:00Z', 'rome 2026-11-24: held bucket 19°C died');
  add(
    'edge',
    'paris',
    '2026-11-24T12:30:00Z',
    'paris 2026-11-24: edge +9.5 points on YES 5°C at 0.50 on mkta (model 60.5%)',
  );
  h.cache.close();
});
afterAll(() => {
  for (const tui of running) tui.kill();
  rmSync(root, { recursive: true, force: true });
});

const alertRows = (screen: string) => screen.split('\n').filter((l) => /^[› ] (!!|! |ok)/.test(l));

describe('the Alerts pane in a terminal', () => {
  it('lists alerts by their own instants, A acknowledges every one shown, b and c open the Board at a city', async () => {
    const tui = startTui(['monitor', '--offline', '--db', db], env, { cols: 160, rows: 30 });
    running.push(tui);
    await tui.waitFor('Board');
    tui.press('4');
    const listed = await tui.waitFor('3 unacknowledged');
    // DEAD 12:33Z above EDGE 12:30Z above EDGE 11:00Z, whatever order they were stored in
    expect(alertRows(listed).map((l) => l.slice(2, 28).replace(/\s+/g, ' ').trim())).toEqual([
      '!! DEAD 11-24 12:33Z',
      '! EDGE 11-24 12:30Z',
      '! EDGE 11-24 11:00Z',
    ]);

    tui.press('A');
    await tui.waitFor('0 unacknowledged');
    // the header's count and the list are two reads: the rows follow the count, a frame later on a loaded machine
    await tui.waitForGone('!! DEAD');
    const acked = await tui.waitForGone('! EDGE');
    expect(acked).toContain('3 alerts acknowledged');
    expect(alertRows(acked).every((l) => l.slice(2).startsWith('ok ACKED'))).toBe(true);
    const cache = openCache(db, 'read');
    try {
      expect(storedAlerts(cache).filter((a) => a.acknowledged_at === null)).toEqual([]);
    } finally {
      cache.close();
    }

    // the selected (first) row is Rome's DEAD: b shows the Board with Rome selected
    tui.press('b');
    const board = await tui.waitFor(/› .*Rome/);
    expect(board.split('\n').find((l) => l.startsWith('›'))).toContain('Rome');

    // c from Alerts: the city chosen opens the Board at it too (elsewhere c only picks the city Forecasts follows)
    tui.press('4');
    await tui.waitFor('0 unacknowledged');
    tui.press('c');
    await tui.waitFor('Choose a city');
    // the chooser starts on Rome, the city chosen; Paris is above it
    tui.press('k');
    tui.press('\r');
    const paris = await tui.waitFor(/› .*Paris/);
    expect(paris).not.toContain('0 unacknowledged');
    tui.press('q');
    expect((await tui.exited).exitCode).toBe(0);
  });
});
