import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Cache } from '../../src/cache/index.js';
import type { Forecasts } from '../../src/contract/forecasts.js';
import { MonitorApp } from '../../src/tui/render-monitor.js';
import { BOARD_NOW, boardCache } from './board-fixture.js';
import { KEYS, lines, renderTui, statusSource } from './fixtures.js';

const root = mkdtempSync(join(tmpdir(), 'board-test-'));
const opened: Cache[] = [];
afterAll(() => {
  for (const c of opened) c.close();
  rmSync(root, { recursive: true, force: true });
});
const now = () => new Date(BOARD_NOW);

async function board(size = { columns: 120, rows: 40 }, extra = 0) {
  const cache = boardCache(root, extra);
  opened.push(cache);
  const app = await renderTui(<MonitorApp cache={cache} source={statusSource()} now={now} />, size);
  await app.until((f) => f.includes('Board ·'), 'the board');
  return { app, cache };
}

const rowOf = (frame: string, city: string) => lines(frame).find((l) => l.slice(2).startsWith(city)) ?? '';
const cityOrder = (f: string) =>
  lines(f)
    .filter((l) => /^[› ] (New York City|Paris|Seattle) /.test(l))
    .map((l) => l.slice(2, 15).trim());

/*
 * New York, N(21, 1) °C, METAR high 20 °C (68.0 °F): X conditioned on X >= 19.5, P(X >= 19.5) = 1 - Phi(-1.5) =
 * 0.933193. The market settles on the whole-°C METAR high converted (DESIGN 4): 65°F or below holds 18 °C and under,
 * 66-67 holds 19 °C (66.2), 68-69 holds 20 °C (68.0), 70-71 holds 21 °C (69.8), 72 or higher 22 °C (71.6) and over.
 *   68-69: (Phi(-0.5) - Phi(-1.5)) / 0.933193 = (0.308538 - 0.066807) / 0.933193 = 0.259036
 *   70-71: (Phi(0.5) - Phi(-0.5)) / 0.933193 = 0.382925 / 0.933193 = 0.410339  (the favourite)
 *   72 or higher: (1 - Phi(0.5)) / 0.933193 = 0.330626;  65 or below and 66-67 dead
 * Effective edge, cost max(0.01, overround / 2) = 0.01 on every quote here:
 *   70-71 YES on mktb (0.28 / 0.74): 0.410339 - 0.28 - 0.01 = +0.120 -> +12.0, the best of both venues
 *   (mkta 0.30: +0.100; 68-69 NO 0.740964 - 0.72 - 0.01 = +0.011; 72+ YES 0.330626 - 0.30 - 0.01 = +0.021;
 *   66-67 NO 1 - 0.97 - 0.01 = +0.02)
 * next (DESIGN 4): 20 °C sits in 68-69; 21 °C = 69.8 °F is the next to leave it: 69.8 - 68.0 = +1.8.
 * Ladder: 65- dead, 66-67 dead held (YES), 68-69 alive, 70-71 favourite held (lock), 72+ alive held (NO).
 * P&L at mkta: YES 66-67 10 x 0.05 - 3 = -2.50; NO 72+ 20 x 0.72 - 14 = +0.40; lock 40 x 0.30 - 10 = +2.00: -0.10.
 * Flags: the YES on 66-67 died (DEAD); 68.0 °F is under the models' 72 °F.
 *
 * Paris, N(12, 0.5) °C, high 13 °C (55.4 °F), above every model (11.67 °C): BREAKTHROUGH; its kill unacknowledged:
 * KILL. 18:00 local, lock peak 15 + 2 = 17: passed. No quotes: the buckets laid out around 12, 7- and 8..12 dead,
 * 13 the favourite (0.9915) and held by the lock; 14 (Φ(5) - Φ(3)) / 0.158655 = 0.001350 / 0.158655 = 0.0085, 15, 16
 * and 17+ less still: alive by the rule but under 2% after the peak, practically dead `·`; no edge; one lock, no
 * quote: P&L unknown.
 * next: 14 - 13 = +1.0. Seattle: 09:00, early, nothing cached.
 */
describe('the Board (pane 1)', () => {
  it('is the landing pane: a row a city by local time, its figures in the market unit, flags in words (120x40)', async () => {
    const { app } = await board();
    const frame = app.frame();
    expect(lines(frame)[0]).toContain('[1 Board]');
    expect(frame).toContain(
      'Board · 3 cities · by local time  o order · Enter open city · ladder x dead · <2% - alive * favourite [ ] held',
    );
    const rows = lines(frame);
    // by local time, the latest first (the default order): Paris 18:00, New York 12:00, Seattle 09:00; the cursor on
    // New York, the city chosen
    const title = rows.findIndex((l) => l.includes('best edge') && l.includes('ladder') && !l.includes('·'));
    expect(rows.slice(title, title + 4)).toEqual([
      '  city          local phase     forecast high next ladder        best edge                        P&L flags',
      '  Paris         18:00 passed  12.0±0.5°C 13.0 +1.0 xxxxxx[*]···· —                                  — BREAKTHROUGH KILL',
      '› New York City 12:00 peak    69.8±1.8°F 68.0 +1.8 x[x]-[*][-]   +12.0 YES 70-71°F 0.28 mktb    -0.10 DEAD',
      '  Seattle       09:00 early            —         — —             —                                  —',
    ]);
    app.unmount();
  });

  it('says the model is behind while the sync holds the METAR to before the prices, and prices them once it caught up', async () => {
    const { app, cache } = await board();
    await app.until((f) => rowOf(f, 'New York City').includes('+12.0 YES 70-71°F'), 'the edge');
    // DESIGN 4: the venues' snapshots of 16:55Z against METAR reports held to 16:50Z (and the desk's runs to 16:58Z):
    // no edge, the row says which side it waits for
    cache.streams.recordSuccess('forecasts', '2026-11-24T16:58:30Z', 3, '2026-11-24T16:58:00Z');
    cache.streams.recordSuccess('metar', '2026-11-24T16:50:30Z', 1, '2026-11-24T16:50:00Z');
    await app.until((f) => rowOf(f, 'New York City').includes('model behind'), 'the model behind');
    expect(rowOf(app.frame(), 'New York City')).not.toContain('+12.0');
    // the metar stream's next pass, first answered at 16:56Z: the same +12.0 as before
    cache.streams.recordSuccess('metar', '2026-11-24T16:56:30Z', 1, '2026-11-24T16:56:00Z');
    await app.until((f) => rowOf(f, 'New York City').includes('+12.0 YES 70-71°F 0.28 mktb'), 'the edge again');
    app.unmount();
  });

  it('flags CHECK, with no best edge, when a METAR reading is far outside the forecast', async () => {
    const { app, cache } = await board();
    // a bad report of 40 °C (104 °F) in New York: N(21, 1) leaves no mass at or above 39.5 (z = 18.5), so the rule
    // settles the day where it stands: every bucket dead but 72°F or higher (p 1), no next above the top tail. The
    // dead YES and the breakthrough that reading would raise are not flagged; no best edge on it
    cache.resources.upsertHistorical('metar_observations_history', [
      {
        id: 9001,
        city_id: 'nyc',
        local_date: '2026-11-24',
        observed_at: '2026-11-24T16:30:00Z',
        temp_f: 104,
        temp_c: 40,
      },
    ]);
    const frame = await app.until((f) => rowOf(f, 'New York City').includes('CHECK'), 'the CHECK flag');
    expect(rowOf(frame, 'New York City')).toBe(
      '› New York City 12:00 peak    69.8±1.8°F 104.0   — x[x]x[x][*]   —                              -0.10 CHECK',
    );
    app.unmount();
  });

  it('a forecast the rule cannot use (sigma 0) prices nothing: no favourite, no best edge', async () => {
    const { app, cache } = await board();
    // New York's forecast again, fetched later with sigma 0, through the cache's own write
    const layers = Object.fromEntries(
      cache.export.rows('forecasts', { cityId: 'nyc' }).map((json) => {
        const { city_id: _city, layer, ...member } = JSON.parse(json);
        return [layer, member];
      }),
    );
    const primary = {
      ...layers.svc_pro_forecast,
      sigma: 0,
      sigma_f: 0,
      sigma_c: 0,
      fetched_at: '2026-11-24T16:35:00Z',
    };
    cache.resources.addForecasts({ city_id: 'nyc', ...layers, svc_pro_forecast: primary } as Forecasts);
    const frame = await app.until((f) => rowOf(f, 'New York City').includes('±0.0'), 'the new forecast');
    // the running high still kills 65- and 66-67 and gives next; nothing else is priced
    expect(rowOf(frame, 'New York City')).toBe(
      '› New York City 12:00 peak    69.8±0.0°F 68.0 +1.8 x[x]-[-][-]   —                              -0.10 DEAD',
    );
    app.unmount();
  });

  it('o orders by latest local time (the default), then best edge, then city, and round again', async () => {
    const { app } = await board();
    expect(app.frame()).toContain('by local time');
    // 18:00, 12:00, 09:00
    expect(cityOrder(app.frame())).toEqual(['Paris', 'New York City', 'Seattle']);
    await app.press('o');
    expect(app.frame()).toContain('by best edge');
    // +12.0, no edge (Paris, then Seattle by name)
    expect(cityOrder(app.frame())).toEqual(['New York City', 'Paris', 'Seattle']);
    await app.press('o');
    expect(app.frame()).toContain('by city');
    expect(cityOrder(app.frame())).toEqual(['New York City', 'Paris', 'Seattle']);
    await app.press('o');
    expect(app.frame()).toContain('by local time');
    expect(cityOrder(app.frame())).toEqual(['Paris', 'New York City', 'Seattle']);
    app.unmount();
  });

  it('at 80x24 keeps city, forecast, a shorter ladder, the edge abbreviated, P&L and the flags short', async () => {
    const { app } = await board({ columns: 80, rows: 24 });
    const frame = app.frame();
    for (const l of lines(frame)) expect(l.length).toBeLessThanOrEqual(80);
    // the ladder's legend stays whole; the key hints are in the help
    expect(lines(frame)[1]).toBe('Board · 3 cities · by local time  x dead · <2% - alive * favourite [ ] held');
    // 78 (80 less the cursor's 2), by priority (board-columns.ts): city 13+1 -> 64, best edge 22+1 -> 41, flags
    // `BRK KILL` 8+1 -> 32, forecast 10+1 -> 21, P&L 8+1 -> 12, ladder 7+1 -> 4; high next (10), phase (8) and the
    // rest do not fit, and the 4 left widen the ladder to 11
    expect(rowOf(frame, 'New York City')).toBe(
      '› New York City 69.8±1.8°F x[x]-[*][-] +12.0 YES 70-71°F .28b    -0.10 DEAD',
    );
    // 13 glyphs in 11: the favourite and what is around it stay, ‹ says dead buckets were cut on the left
    expect(rowOf(frame, 'Paris')).toBe(
      '  Paris         12.0±0.5°C ‹xxx[*]···· —                             — BRK KILL',
    );
    expect(frame).not.toContain('phase');
    expect(frame).not.toContain('high next');
    app.unmount();
  });

  it('renders only the rows that fit, and scrolls to the others', async () => {
    // 3 cities + 30 without data; 80x24 leaves 18 rows under the header and the titles, less the line under the
    // board (the book's horizon): 17. The selected row's edge record is in the city's detail, not drawn under 30 rows
    const { app } = await board({ columns: 80, rows: 24 }, 30);
    const cityRows = (f: string) => lines(f).filter((l) => /^[› ] (New York City|Paris|Seattle|C\d\d) /.test(l));
    expect(app.frame()).toContain('Board · 33 cities');
    // the latest local time first: Paris (18:00), then C01 .. C30 (UTC, 17:00) by name: Paris, C01 .. C16 fill the
    // screen, New York (12:00) and Seattle (09:00) below it
    expect(cityRows(app.frame())).toHaveLength(17);
    expect(cityRows(app.frame())[16]).toContain('C16');
    expect(app.frame()).not.toContain('Seattle');
    await app.press(KEYS.pageDown, KEYS.pageDown);
    const end = cityRows(app.frame());
    expect(end).toHaveLength(17);
    expect(end.at(-1)).toMatch(/^› Seattle/);
    app.unmount();
  });

  it('says under the board what edges like the selected best edge have done in this cache', async () => {
    const { app } = await board();
    await app.until((f) => f.includes('record: n < 10'), 'the edge record line');
    // New York's best edge is +12.0 points, band 0.10-0.20, on mktb; the hand-built cache holds no settled day, so
    // the record has no position of that band and venue: fewer than 10 (DESIGN 4 "an edge's own record")
    expect(
      lines(app.frame())
        .find((l) => l.includes('record: n < 10'))
        ?.trim(),
    ).toBe('New York City: best edge +12.0 YES 70-71°F 0.28 mktb · 0.10-0.20 mktb record: n < 10');
    app.unmount();
  });

  it('a kill acknowledged takes KILL off its row', async () => {
    const { app, cache } = await board();
    const [kill] = cache.alerts.older('kill', null, 10);
    expect(kill?.city_id).toBe('paris');
    cache.alerts.acknowledge(kill?.id as number, '2026-11-24T17:00:30Z');
    const frame = await app.until((f) => !rowOf(f, 'Paris').includes('KILL'), 'the kill flag gone');
    expect(rowOf(frame, 'Paris')).toMatch(/ BREAKTHROUGH$/);
    app.unmount();
  });

  it('coming back from an opened city keeps the order and the cursor on that city', async () => {
    const { app } = await board();
    // by local time Paris, New York City (the cursor, the city chosen), Seattle: k to Paris; by best edge New York
    // City, Paris, Seattle, and the cursor stays on Paris, now the second row, as the order changes under it (not on
    // New York, now the first)
    await app.press('k');
    await app.until((f) => rowOf(f, 'Paris').startsWith('›'), 'the cursor on Paris');
    await app.press('o');
    let frame = await app.until((f) => f.includes('by best edge'), 'the board by best edge');
    expect(cityOrder(frame)).toEqual(['New York City', 'Paris', 'Seattle']);
    expect(rowOf(frame, 'Paris').startsWith('›')).toBe(true);
    await app.press(KEYS.enter);
    await app.until((f) => f.includes('Paris (paris)'), 'Paris on Forecasts');
    await app.press('1');
    frame = await app.until((f) => rowOf(f, 'Paris').startsWith('›'), 'the cursor on Paris');
    expect(frame).toContain('by best edge');
    expect(rowOf(frame, 'New York City').startsWith(' ')).toBe(true);
    app.unmount();
  });

  it('Enter opens the city on Forecasts, with payoff by outcome of its positions, picks and locks', async () => {
    const { app } = await board();
    await app.press(KEYS.enter);
    const frame = await app.until((f) => f.includes('PAYOFF BY OUTCOME'), 'payoff by outcome');
    expect(lines(frame)[0]).toContain('[5 Forecasts]');
    expect(frame).toContain('New York City (nyc)');
    // stakes 3 + 14 + 0.25 x 40 = 27.00; each row: what the YES 66-67, the NO 72+ and the lock on 70-71 pay there
    expect(frame).toContain('PAYOFF BY OUTCOME  3 holdings, 27.00 USD staked');
    // the payoff is in the left column, under the buckets
    const left = lines(frame).map((l) => (l.split(' │')[0] ?? '').trimEnd());
    const at = left.findIndex((l) => l.startsWith('PAYOFF BY OUTCOME'));
    expect(left.slice(at + 1, at + 7)).toEqual([
      '  bucket          held           pays       P&L',
      // only the NO pays: 20 - 27
      '  65°F or below                 20.00     -7.00  dead',
      // the YES 10 and the NO 20: 30 - 27
      '  66-67°F         YES           30.00     +3.00  dead',
      '  68-69°F                       20.00     -7.00',
      // the NO 20 and the lock 40: 60 - 27
      '  70-71°F         YES           60.00    +33.00',
      // the NO loses where its bucket wins: 0 - 27
      '  72°F or higher  NO             0.00    -27.00',
    ]);
    // Esc comes back to the board
    await app.press(KEYS.escape);
    expect(lines(app.frame())[0]).toContain('[1 Board]');
    app.unmount();
  });
  it('u switches °F/°C for the other panes and says the board keeps each market in its own unit', async () => {
    const { app } = await board();
    await app.press('u');
    const frame = await app.until((f) => f.includes('°F/°C switched'), 'the notice');
    expect(frame).toContain(
      '°F/°C switched on Forecasts and History; the board shows each market in the unit it settles in',
    );
    // New York's row still in °F
    expect(rowOf(frame, 'New York City')).toContain('68.0');
    // Forecasts now shows New York in °C
    await app.press(KEYS.enter);
    await app.until((f) => f.includes('New York City (nyc)') && f.includes('showing °C (u)'), 'Forecasts in °C');
    app.unmount();
  });

  it('z on a row snoozes its city for alerts.snooze_minutes (60 by default), kept in the cache', async () => {
    const { app, cache } = await board();
    // the cursor starts on the first row, New York
    await app.press('z');
    const frame = await app.until((f) => f.includes('snoozed until'), 'the snooze notice');
    // 17:00Z + 60 min = 18:00Z, 13:00 in New York: the end on the city's clock (the market's minutes)
    expect(frame).toContain('New York City snoozed until 13:00 local (no notification)');
    // on the market's clock (DESIGN 4): an hour after the board's now
    expect(cache.alerts.snoozed(BOARD_NOW)).toEqual([{ city_id: 'nyc', until_ms: BOARD_NOW + 60 * 60_000 }]);
    app.unmount();
  });
});
