import { afterAll, describe, expect, it } from 'vitest';
import { boardPicksNote } from '../../src/board/board-row.js';
import { readBoard } from '../../src/board/read-board.js';
import type { Cache } from '../../src/cache/index.js';
import { MonitorApp } from '../../src/tui/render-monitor.js';
import { cLeg, handCaches, NYC, PARIS, pickEvent } from '../helpers/cache-builder.js';
import { leg, testEvent } from '../helpers/webhook-events.js';
import { lines, renderTui, statusSource } from './fixtures.js';

/**
 * DESIGN 4 "the book's horizon" on a cache built by hand. Now is 15:00Z on 2026-11-21: Paris' day (UTC+1) began at
 * 2026-11-20T23:00Z, New York's (UTC-5) at 05:00Z. The listener's first verified delivery is a webhook.test at 13:00Z
 * (after both days began), or at 22:00Z the evening before (before both).
 *
 * Paris' book: an addon (leg C on 14°C, 20 shares at 0.25, 5.00) of pick 99999999, which the cache never received,
 * quoted 0.30 on mkta at 14:30Z: 20 x 0.30 = 6.00 - 5.00 = +1.00. New York's: a kill at 14:10Z of pick 88888888,
 * never received either (legs A 50-51°F and B 52-53°F).
 */
const NOW_MS = Date.parse('2026-11-21T15:00:00Z');
const now = () => new Date(NOW_MS);
const TODAY = '2026-11-21';
const ADDON = '77777777-7777-4777-8777-777777777777';
const UNSEEN = '99999999-9999-4999-8999-999999999999';
const UNSEEN_KILLED = '88888888-8888-4888-8888-888888888888';

const caches = handCaches('tui-horizon-');
afterAll(() => caches.close());

function book(firstDelivery: string): Cache {
  const hand = caches.open().cities(NYC, PARIS);
  hand.quotes('mkta', PARIS, TODAY, '2026-11-21T14:30:00Z', [
    ['13°C', 0.5, 0.52],
    ['14°C', 0.3, 0.72],
  ]);
  hand.deliver([testEvent()], firstDelivery);
  hand.deliver([
    pickEvent('insurance.addon.created', {
      pickId: ADDON,
      parent: UNSEEN,
      city: PARIS,
      date: TODAY,
      at: '2026-11-21T14:20:00Z',
      legs: [cLeg('C', 14, { shares: 20, stake_usd: 5 })],
    }),
    pickEvent('insurance.pick.killed', {
      pickId: UNSEEN_KILLED,
      city: NYC,
      date: TODAY,
      at: '2026-11-21T14:10:00Z',
      legs: [leg('A', 50), leg('B', 52)],
      reason: 'METAR high so far 54°F is above every leg',
    }),
  ]);
  return hand.cache;
}

const render = (cache: Cache) =>
  renderTui(<MonitorApp cache={cache} source={statusSource()} now={now} />, { columns: 130, rows: 80 });

describe('the book’s horizon', () => {
  it('Positions: the horizon under the grand total, an addon and a kill whose pick was not received apart', async () => {
    const app = await render(book('2026-11-21T13:00:00Z'));
    await app.pane('3');
    const rows = lines(await app.until((f) => f.includes('PICK NOT RECEIVED'), 'Positions'));
    app.unmount();
    const total = rows.findIndex((l) => l.includes('TOTAL '));
    // the grand total holds the addon (20 x 0.300 = 6.00 - 5.00 = +1.00): held, as the board counts it
    expect(rows[total]).toBe('  TOTAL  1 open · 1 priced · staked 5.00 · unrealised +1.00');
    // the days on screen began before 13:00Z: picks made before it never reached the monitor
    expect(rows[total + 1]).toBe('    insurance picks since 11-21 13:00Z');
    // no received pick live: the addon is not joined to nothing, not in a city-day
    const live = rows.findIndex((l) => l.includes('LIVE DAYS'));
    expect(rows[live + 2]).toBe('    none live');
    const heading = rows.findIndex((l) => l.includes('PICK NOT RECEIVED'));
    expect(rows[heading + 1]).toMatch(/^ {4}pick 99999999 not received$/);
    // 20 x 0.300 = 6.00 - 5.00 = +1.00
    expect(rows[heading + 2]).toMatch(/^› {3}addon 77777777 Paris 2026-11-21 +5\.00 +\+1\.00$/);
    expect(rows[heading + 3]).toMatch(/^ {6}C YES 14°C .* 0\.250 {2}0\.300m {4}5\.00 {4}\+1\.00$/);
    expect(rows[heading + 4]).toBe('    kill 88888888 New York City 2026-11-21 at 11-21 14:10Z: A 50-51°F, B 52-53°F');
    const totals = rows.slice(rows.findIndex((l) => l.includes('TOTALS BY FAMILY')));
    // counted apart: insurance holds no received pick, the addon's 5.00 and +1.00 on a row of its own
    expect(totals.find((l) => l.includes(' insurance '))).toMatch(/insurance +0 +0 +0\.00 +—$/);
    expect(totals.find((l) => l.startsWith('    pick not received'))).toMatch(
      /pick not received +1 +1 +5\.00 +\+1\.00$/,
    );
    expect(totals.find((l) => l.startsWith('    total '))).toMatch(/total +1 +1 +5\.00 +\+1\.00$/);
    expect(totals).toContain('    insurance staked and unrealised: insurance picks since 11-21 13:00Z');
  });

  it('the board: a line under it while the day began before the horizon, none once it began after', async () => {
    const cities = [NYC, PARIS];
    const late = readBoard(book('2026-11-21T13:00:00Z'), cities, NOW_MS);
    expect(late.map((r) => [r.name, r.exposure, r.picksNote])).toEqual([
      // the kill closed New York's unseen pick: nothing staked; Paris holds the addon's 5.00
      ['New York City', 0, 'insurance picks since 11-21 13:00Z'],
      ['Paris', 5, 'insurance picks since 11-21 13:00Z'],
    ]);
    expect(boardPicksNote(late)).toBe('staked, P&L: insurance picks since 11-21 13:00Z');
    // 22:00Z the evening before: before Paris' 23:00Z and New York's 05:00Z, both books whole
    const early = readBoard(book('2026-11-20T22:00:00Z'), cities, NOW_MS);
    expect(early.map((r) => r.picksNote)).toEqual([null, null]);
    expect(boardPicksNote(early)).toBeNull();
    // only some rows: named
    expect(
      boardPicksNote([
        { name: 'Paris', picksNote: 'x' },
        { name: 'Rome', picksNote: null },
      ]),
    ).toBe('staked, P&L of Paris: x');
    // every today's row, with tomorrow's rows listed too: said once, not by naming every city
    expect(
      boardPicksNote([
        { name: 'Paris', picksNote: 'x' },
        { name: 'Paris', picksNote: null, tomorrow: true },
        { name: 'Rome', picksNote: 'x' },
        { name: 'Rome', picksNote: null, tomorrow: true },
      ]),
    ).toBe("staked, P&L of today's markets: x");
    // some of today's rows, beside tomorrow's: named
    expect(
      boardPicksNote([
        { name: 'Paris', picksNote: 'x' },
        { name: 'Paris', picksNote: null, tomorrow: true },
        { name: 'Rome', picksNote: null },
      ]),
    ).toBe('staked, P&L of Paris: x');

    const app = await render(book('2026-11-21T13:00:00Z'));
    const frame = await app.until((f) => f.includes('Board ·') && f.includes('Paris'), 'the board');
    expect(lines(frame)).toContain('  staked, P&L: insurance picks since 11-21 13:00Z');
    app.unmount();
  });

  it('says nothing of the horizon once every day on screen began after it; the addon still stands apart', async () => {
    const app = await render(book('2026-11-20T22:00:00Z'));
    const board = await app.until((f) => f.includes('Board ·') && f.includes('Paris'), 'the board');
    expect(board).not.toContain('insurance picks');
    await app.pane('3');
    const rows = lines(await app.until((f) => f.includes('PICK NOT RECEIVED'), 'Positions'));
    app.unmount();
    expect(rows.join('\n')).not.toContain('insurance picks since');
    const total = rows.findIndex((l) => l.includes('TOTAL '));
    expect(rows[total + 1]).toBe('');
    const heading = rows.findIndex((l) => l.includes('PICK NOT RECEIVED'));
    expect(rows[heading + 1]).toBe('    pick 99999999 not received');
  });

  it('without any verified delivery: no picks can have been received, and every screen says so', () => {
    const hand = caches.open().cities(PARIS);
    const rows = readBoard(hand.cache, [PARIS], NOW_MS);
    expect(rows[0]?.picksNote).toBe('insurance picks: none received (no listener)');
    expect(hand.cache.inbox.bookHorizon()).toBeNull();
  });
});
