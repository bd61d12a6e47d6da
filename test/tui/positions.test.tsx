import { afterAll, describe, expect, it } from 'vitest';
import type { Cache } from '../../src/cache/index.js';
import { MonitorApp } from '../../src/tui/render-monitor.js';
import { cLeg, HandCache, handCaches, no24, PARIS, pickEvent } from '../helpers/cache-builder.js';
import { openRecords } from '../helpers/cache-rows.js';
import { monitorScene, now, PICK_PARIS, TODAY } from '../helpers/monitor-scene.js';
import { KEYS, lines, renderTui, statusSource } from './fixtures.js';

const caches = handCaches('tui-positions-');
afterAll(() => caches.close());
/** The hand-built scene of helpers/monitor-scene.ts (its comment gives every record, quote and mark). */
const scene = (options?: { history: boolean }) => monitorScene(caches.open(), options);

const ADDON = '55555555-5555-4555-8555-555555555555';

/** Hedges the live Paris pick with an addon (leg C on 14°C, 20 shares at 0.25), as the insurance engine would. */
function hedgeParis(cache: Cache): void {
  const outcomes = new HandCache(cache).deliver([
    pickEvent('insurance.addon.created', {
      pickId: ADDON,
      parent: PICK_PARIS,
      city: PARIS,
      date: TODAY,
      at: '2026-11-21T14:20:00Z',
      legs: [cLeg('C', 14, { shares: 20, stake_usd: 5 })],
    }),
  ]);
  expect(outcomes).toEqual(['stored']);
}

const render = (cache: Cache, rows = 120) =>
  renderTui(<MonitorApp cache={cache} source={statusSource()} now={now} />, { columns: 130, rows });

describe('Positions pane', () => {
  it('marks each open record to the newest mkta quote of its bucket: entry, now, stake and unrealised P&L', async () => {
    const app = await render(scene());
    const rows = lines(await app.pane('3'));
    // every open record of the scene, one row each: four no24 (newest first) and a yescore, the city by its name
    const records = rows.slice(rows.indexOf('  STRATEGY RECORDS (open)'), rows.indexOf('  FUSION LOCKS (unresolved)'));
    expect(
      records
        .filter((l) => / (no24|yescore|svc-max-picks) /.test(l))
        .map((l) => l.match(/(\S+) +(\S+(?: \S+)*?) +2026/)?.slice(1)),
    ).toEqual([
      ['no24', 'Paris'],
      ['no24', 'Paris'],
      ['no24', 'London'],
      ['no24', 'New York City'],
      ['yescore', 'New York City'],
    ]);
    // the scene's open records, the mkta quote of each bucket, and the unrealised P&L: shares x now - stake
    const expected: [family: string, city: string, side: string, bucket: string, cells: string][] = [
      ['no24', 'New York City', 'NO ', '50-51°F', '0.500  0.600m   10.00    +2.00'], // 20 x 0.600 = 12.00 - 10.00
      ['no24', 'London', 'NO ', '52-53°F', '0.800  0.760m   10.00    -0.50'], // 12.5 x 0.760 = 9.50 - 10.00
      ['no24', 'Paris', 'NO ', '12°C', '0.625  0.625m   10.00    ±0.00'], // 16 x 0.625 = 10.00 - 10.00: no sign
      ['yescore', 'New York City', 'YES', '48-49°F', '0.250  0.300m   10.00    +2.00'], // 40 x 0.300 = 12.00 - 10.00
    ];
    for (const [family, city, side, bucket, cells] of expected) {
      const row = rows.find((l) => l.includes(` ${family} `) && l.includes(` ${city} `) && l.includes(bucket));
      expect(row, `${family} ${city}`).toMatch(new RegExp(`${side} ${bucket} .* ${cells.replace('+', '\\+')}$`));
    }
    // no quote of paris' 14°C or higher: the record's own mark (r), 11 x 0.950 = 10.45 - 9.90 = +0.55
    expect(rows.find((l) => l.includes('14°C or higher'))).toMatch(
      /NO {2}14°C or higher .* 0\.900 {2}0\.950r {4}9\.90 {4}\+0\.55$/,
    );
    app.unmount();
  });

  it('lists unresolved locks, live picks with their legs and the addon under its parent, open edge trades, and totals by family', async () => {
    const cache = scene();
    hedgeParis(cache);
    const app = await render(cache);
    const rows = lines(await app.pane('3'));
    const at = (text: string) => rows.findIndex((l) => l.includes(text));
    const sections = [
      'STRATEGY RECORDS (open)',
      'FUSION LOCKS (unresolved)',
      'INSURANCE PICKS (live)',
      'EDGE TRADES (open)',
      'TOTALS BY FAMILY',
    ];
    const places = sections.map(at);
    expect(places.every((p) => p >= 0)).toBe(true);
    expect([...places].sort((a, b) => a - b)).toEqual(places);
    // the two locks of today, newest first (both 14:00Z: by id), each marked to its bucket's YES quote
    expect(rows.slice(places[1], places[2]).filter((l) => l.includes(' peak '))).toEqual([
      expect.stringMatching(/Paris +2026-11-21 peak 15 {2}YES 12°C .* 0\.350 {2}0\.375m {4}7\.00 {4}\+0\.50$/), // 20 x 0.375 = 7.50 - 7.00
      expect.stringMatching(/London +2026-11-21 peak 14 {2}YES 50-51°F .* 0\.400 {2}0\.450m {3}10\.00 {4}\+1\.25$/), // 25 x 0.45 = 11.25 - 10
    ]);
    // the Paris addon (leg C) sits under its primary pick, after the primary's legs A and B
    const parentAt = at('pick 22222222 Paris 2026-11-21');
    expect(parentAt).toBeGreaterThan(places[2] as number);
    expect(rows[parentAt + 1]).toMatch(/ {6}A YES 12°C/);
    expect(rows[parentAt + 2]).toMatch(/ {6}B YES 13°C/);
    expect(rows[parentAt + 3]).toContain('└ addon 55555555 Paris 2026-11-21');
    // 14°C is not quoted: the hedge leg has no current price, nor P&L
    expect(rows[parentAt + 4]).toMatch(/ {8}C YES 14°C .* 0\.250 +— +5\.00 +—$/);
    // New York's pick: A 20 x 0.420 = 8.40 - 5.00 = +3.40, B 25 x 0.180 = 4.50 - 5.00 = -0.50, the pick +2.90
    const nycAt = at('pick 11111111 New York City 2026-11-21');
    expect(rows[nycAt]).toMatch(/ 10\.00 {4}\+2\.90$/);
    expect(rows[nycAt + 1]).toMatch(/A YES 50-51°F .* 0\.250 {2}0\.420m {4}5\.00 {4}\+3\.40$/);
    expect(rows[nycAt + 2]).toMatch(/B YES 52-53°F .* 0\.200 {2}0\.180m {4}5\.00 {4}-0\.50$/);
    // one open edge trade (#7000 exited): 16.13 x 0.760 = 12.2588 - 10.00 = +2.26
    expect(rows.slice(places[3], places[4]).filter((l) => / x\d/.test(l))).toEqual([
      expect.stringMatching(/London +2026-11-21 NO {2}52-53°F x16\.13 .* 0\.620 {2}0\.760m {3}10\.00 {4}\+2\.26$/),
    ]);
    const totals = rows.slice(places[4]);
    // no24: 4 open, all priced, 10 + 10 + 10 + 9.90 = 39.90 staked, +2.00 - 0.50 + 0 + 0.55 = +2.05
    expect(totals.find((l) => l.includes('no24'))).toMatch(/no24 +4 +4 +39\.90 +\+2\.05$/);
    expect(totals.find((l) => l.includes('svc-max-picks'))).toMatch(/svc-max-picks +0 +0 +0\.00 +—/);
    // locks: 7.00 + 10.00 staked, +0.50 + 1.25; picks: nyc's 10.00 and paris' 10.00 (+0.50 - 0.50) with the addon's
    // 5.00 (unpriced): 25.00, +2.90
    expect(totals.find((l) => l.includes('fusion-locks'))).toMatch(/fusion-locks +2 +2 +17\.00 +\+1\.75$/);
    expect(totals.find((l) => l.includes('insurance'))).toMatch(/insurance +3 +\d +25\.00 +\+2\.90$/);
    app.unmount();
  });

  it('without quotes falls back to the record’s own mark (r), and leaves unpriced positions without P&L', async () => {
    const app = await render(scene({ history: false }));
    const rows = lines(await app.pane('3'));
    // New York's no24 record marks itself at 0.550: 20 shares x 0.550 = 11.00, less the 10.00 stake = +1.00
    const row = rows.find((l) => l.includes('no24') && l.includes(' New York City '));
    expect(row).toContain('0.550r');
    expect(row).toMatch(/ \+1\.00$/);
    // a lock has no mark of its own: no price, its stake (20 x 0.35 = 7.00), no P&L
    const lockRow = rows.find((l) => l.includes(' peak ') && l.includes('Paris'));
    expect(lockRow).toMatch(/— +7\.00 +—$/);
    app.unmount();
  });

  it('Enter shows the selected position in full', async () => {
    const app = await render(scene(), 60);
    // the cursor starts on the first record listed, the newest no24 (#104), two lines below the heading: the heading
    // and the column titles, where Enter opens nothing, are passed over
    await app.pane('3');
    const first = (f: string) => lines(f)[4] ?? '';
    await app.until((f) => first(f).startsWith('›') && f.includes('STRATEGY RECORDS'), 'the first record selected');
    // j to the next record, k back; k again stays (nothing above opens)
    await app.press('j');
    await app.until((f) => (lines(f)[5] ?? '').startsWith('›'), 'the second record selected');
    await app.press('k');
    await app.until((f) => first(f).startsWith('›'), 'the first record again');
    await app.press('k');
    await app.until((f) => first(f).startsWith('›') && !(lines(f)[3] ?? '').startsWith('›'), 'still the first');
    // and j from there goes on at once
    await app.press('j');
    await app.until((f) => (lines(f)[5] ?? '').startsWith('›'), 'the second record again');
    await app.press('k');
    await app.until((f) => first(f).startsWith('›'), 'the first record, for Enter');
    await app.press(KEYS.enter);
    const detail = await app.until((f) => f.includes('"current_no_price"'), 'the detail');
    expect(detail).toContain('no24 #104');
    expect(detail).toContain('"current_no_price": 0.95');
    await app.press(KEYS.escape);
    await app.until((f) => f.includes('STRATEGY RECORDS (open)'), 'the list again');
    app.unmount();
  });

  it('counts every open position in the totals, and says when the list (newest 500) holds fewer', async () => {
    const cache = scene();
    // each of its own size, so no two rows read alike
    const extra = Array.from({ length: 600 }, (_, i) =>
      no24({ id: 900_000 + i, city_id: 'nyc', local_date: TODAY, bucket_label: '50-51°F', shares: 1 + i, ask: 0.5 }),
    );
    new HandCache(cache).records('no24', ...extra);
    // the scene's 4 and 600 more
    expect(openRecords(cache, 'no24')).toHaveLength(604);
    const app = await render(cache, 40);
    let frame = await app.pane('3');
    // the totals are at the end of the pane: G is not a key here, so page down until they show
    for (let i = 0; i < 40 && !frame.includes('cover the newest listed'); i++) {
      await app.press(KEYS.pageDown);
      frame = await app.until((f) => f !== frame, 'the next page');
    }
    const row = lines(frame).find((l) => /^\s+no24\s+\d+/.test(l));
    expect(row).toMatch(/^\s+no24\s+604\s/);
    expect(frame).toContain('no24 500 of 604');
    app.unmount();
  });
});
