import { afterAll, describe, expect, it } from 'vitest';
import type { Cache } from '../../src/cache/index.js';
import { MonitorApp } from '../../src/tui/render-monitor.js';
import { cLeg, HandCache, handCaches, no24, PARIS, pickEvent, yescore } from '../helpers/cache-builder.js';
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

/**
 * Open records of days that are over (the service has not settled them yet), each marked with its own mark (no
 * quote of 11-20 or 11-19 is cached):
 *   no24 #110 london 11-20 NO 50-51°F 10 sh at .60 (6.00), mark .90: 9.00 - 6.00 = +3.00
 *   yescore #210 nyc 11-20 YES 46-47°F 20 sh at .25 (5.00), mark .05: 1.00 - 5.00 = -4.00
 *   no24 #112 paris 11-19 NO 13°C 8 sh at .50 (4.00), mark .75: 6.00 - 4.00 = +2.00
 */
function decidedDays(cache: Cache): Cache {
  new HandCache(cache)
    .records(
      'no24',
      no24({
        id: 110,
        city_id: 'london',
        local_date: '2026-11-20',
        bucket_label: '50-51°F',
        shares: 10,
        ask: 0.6,
        mark: 0.9,
      }),
      no24({
        id: 112,
        city_id: 'paris',
        local_date: '2026-11-19',
        bucket_label: '13°C',
        shares: 8,
        ask: 0.5,
        mark: 0.75,
      }),
    )
    .records(
      'yescore',
      yescore({
        id: 210,
        city_id: 'nyc',
        local_date: '2026-11-20',
        bucket_label: '46-47°F',
        shares: 20,
        ask: 0.25,
        mark: 0.05,
      }),
    );
  return cache;
}

/** The lines of a section, from its heading to the blank line that ends it. */
function section(rows: string[], title: string): string[] {
  const from = rows.findIndex((l) => l.includes(title));
  expect(from, title).toBeGreaterThanOrEqual(0);
  const to = rows.findIndex((l, i) => i > from && l === '');
  return rows.slice(from, to < 0 ? undefined : to);
}

/** A city-day's lines within a section: its header (`    Paris 2026-11-21  4 positions`) and its positions. */
function group(rows: string[], header: string): string[] {
  const from = rows.findIndex((l) => l.startsWith(`    ${header} `));
  expect(from, header).toBeGreaterThanOrEqual(0);
  const to = rows.findIndex((l, i) => i > from && !/^[› ] {5}/.test(l));
  return rows.slice(from, to < 0 ? undefined : to);
}

describe('Positions pane', () => {
  it('marks each open record to the newest mkta quote of its bucket: entry, now, stake and unrealised P&L', async () => {
    const app = await render(scene());
    const rows = lines(await app.pane('3'));
    const live = section(rows, 'LIVE DAYS');
    // the scene's open records by city-day, newest first within one: four no24 and a yescore
    const records = (city: string) =>
      group(live, `${city} 2026-11-21`)
        .filter((l) => / (no24|yescore|svc-max-picks) /.test(l))
        .map((l) => l.match(/(no24|yescore|svc-max-picks) +(NO|YES) +(.+?°[CF](?: or \w+)?)/)?.slice(1));
    expect(records('London')).toEqual([['no24', 'NO', '52-53°F']]);
    expect(records('New York City')).toEqual([
      ['no24', 'NO', '50-51°F'],
      ['yescore', 'YES', '48-49°F'],
    ]);
    expect(records('Paris')).toEqual([
      ['no24', 'NO', '14°C or higher'],
      ['no24', 'NO', '12°C'],
    ]);
    // the scene's open records, the mkta quote of each bucket, and the unrealised P&L: shares x now - stake
    const expected: [family: string, city: string, side: string, bucket: string, cells: string][] = [
      ['no24', 'New York City', 'NO ', '50-51°F', '0.500  0.600m   10.00    +2.00'], // 20 x 0.600 = 12.00 - 10.00
      ['no24', 'London', 'NO ', '52-53°F', '0.800  0.760m   10.00    -0.50'], // 12.5 x 0.760 = 9.50 - 10.00
      ['no24', 'Paris', 'NO ', '12°C', '0.625  0.625m   10.00    ±0.00'], // 16 x 0.625 = 10.00 - 10.00: no sign
      ['yescore', 'New York City', 'YES', '48-49°F', '0.250  0.300m   10.00    +2.00'], // 40 x 0.300 = 12.00 - 10.00
    ];
    for (const [family, city, side, bucket, cells] of expected) {
      const row = group(live, `${city} 2026-11-21`).find((l) => l.includes(` ${family} `) && l.includes(bucket));
      expect(row, `${family} ${city}`).toMatch(new RegExp(`${side} ${bucket} .* ${cells.replace('+', '\\+')}$`));
    }
    // no quote of paris' 14°C or higher: the record's own mark (r), 11 x 0.950 = 10.45 - 9.90 = +0.55
    expect(rows.find((l) => l.includes('14°C or higher'))).toMatch(
      /NO {2}14°C or higher .* 0\.900 {2}0\.950r {4}9\.90 {4}\+0\.55$/,
    );
    app.unmount();
  });

  it('groups by city-day with subtotals, live days before decided ones, and a grand total on top and at the foot', async () => {
    const app = await render(decidedDays(scene()));
    const rows = lines(await app.pane('3'));
    // 10 open of the scene and 3 of decided days; staked 96.90 + 6.00 + 5.00 + 4.00 = 111.90; unrealised: the
    // scene's +10.96 (the live subtotals below) + 3.00 - 4.00 + 2.00 = +11.96
    expect(rows[2]).toBe('  TOTAL  13 open · 13 priced · staked 111.90 · unrealised +11.96');
    const live = section(rows, 'LIVE DAYS (today and ahead)');
    const decided = section(rows, 'DECIDED DAYS');
    expect(rows.indexOf(live[0] as string)).toBeLessThan(rows.indexOf(decided[0] as string));
    const headers = (lines: string[]) => lines.filter((l) => /^ {4}\S.* 2026-\d\d-\d\d {2}\d+ position/.test(l));
    // live: today's three cities by name, each with its count and subtotal
    expect(headers(live)).toEqual([
      // no24 #102 -0.50, lock +1.25, edge +2.26: 10.00 x 3 = 30.00, +3.01
      expect.stringMatching(/^ {4}London 2026-11-21 {2}3 positions +30\.00 +\+3\.01$/),
      // no24 #101 +2.00, yescore #201 +2.00, pick 11111111 +2.90 (10.00 each)
      expect.stringMatching(/^ {4}New York City 2026-11-21 {2}3 positions +30\.00 +\+6\.90$/),
      // no24 #104 9.90 +0.55, #103 10.00 ±0.00, lock 7.00 +0.50, pick 22222222 10.00 ±0.00: 36.90, +1.05
      expect.stringMatching(/^ {4}Paris 2026-11-21 {2}4 positions +36\.90 +\+1\.05$/),
    ]);
    // decided: the newest day first, then by city name
    expect(headers(decided)).toEqual([
      expect.stringMatching(/^ {4}London 2026-11-20 {2}1 position +6\.00 +\+3\.00$/),
      expect.stringMatching(/^ {4}New York City 2026-11-20 {2}1 position +5\.00 +-4\.00$/),
      expect.stringMatching(/^ {4}Paris 2026-11-19 {2}1 position +4\.00 +\+2\.00$/),
    ]);
    expect(group(decided, 'London 2026-11-20')[1]).toMatch(
      /no24 +NO {2}50-51°F .* 0\.600 {2}0\.900r {4}6\.00 {4}\+3\.00$/,
    );
    expect(group(decided, 'New York City 2026-11-20')[1]).toMatch(
      /yescore +YES 46-47°F .* 0\.250 {2}0\.050r {4}5\.00 {4}-4\.00$/,
    );
    const totals = rows.slice(rows.findIndex((l) => l.includes('TOTALS BY FAMILY')));
    // no24: 39.90 + 6.00 + 4.00 = 49.90, +2.05 + 3.00 + 2.00 = +7.05; yescore 10.00 + 5.00, +2.00 - 4.00 = -2.00
    expect(totals.find((l) => l.includes(' no24 '))).toMatch(/no24 +6 +6 +49\.90 +\+7\.05$/);
    expect(totals.find((l) => l.includes(' yescore '))).toMatch(/yescore +2 +2 +15\.00 +-2\.00$/);
    expect(totals.find((l) => l.startsWith('    total '))).toMatch(/total +13 +13 +111\.90 +\+11\.96$/);
    app.unmount();
  });

  it('lists unresolved locks, live picks with their legs and the addon under its parent, open edge trades, and totals by family', async () => {
    const cache = scene();
    hedgeParis(cache);
    const app = await render(cache);
    const rows = lines(await app.pane('3'));
    const live = section(rows, 'LIVE DAYS');
    expect(section(rows, 'DECIDED DAYS')).toContainEqual('    none decided');
    // the two locks of today, each on its city-day, marked to its bucket's YES quote
    expect(group(live, 'Paris 2026-11-21').filter((l) => l.includes('fusion-lock'))).toEqual([
      expect.stringMatching(/fusion-lock +YES 12°C {2}peak 15 .* 0\.350 {2}0\.375m {4}7\.00 {4}\+0\.50$/), // 20 x 0.375 = 7.50 - 7.00
    ]);
    expect(group(live, 'London 2026-11-21').filter((l) => l.includes('fusion-lock'))).toEqual([
      expect.stringMatching(/fusion-lock +YES 50-51°F {2}peak 14 .* 0\.400 {2}0\.450m {3}10\.00 {4}\+1\.25$/), // 25 x 0.45 = 11.25 - 10
    ]);
    // the Paris addon (leg C) sits under its primary pick, after the primary's legs A and B
    const paris = group(live, 'Paris 2026-11-21');
    const parentAt = paris.findIndex((l) => l.includes('pick 22222222'));
    expect(parentAt).toBeGreaterThan(0);
    expect(paris[parentAt + 1]).toMatch(/ {8}A YES 12°C/);
    expect(paris[parentAt + 2]).toMatch(/ {8}B YES 13°C/);
    expect(paris[parentAt + 3]).toContain('└ addon 55555555');
    // 14°C is not quoted: the hedge leg has no current price, nor P&L; nor has the day's subtotal all of it
    expect(paris[parentAt + 4]).toMatch(/ {10}C YES 14°C .* 0\.250 +— +5\.00 +—$/);
    expect(paris[0]).toMatch(/^ {4}Paris 2026-11-21 {2}5 positions, 4 priced +41\.90 +\+1\.05$/);
    // New York's pick: A 20 x 0.420 = 8.40 - 5.00 = +3.40, B 25 x 0.180 = 4.50 - 5.00 = -0.50, the pick +2.90
    const nyc = group(live, 'New York City 2026-11-21');
    const nycAt = nyc.findIndex((l) => l.includes('pick 11111111'));
    expect(nyc[nycAt]).toMatch(/ 10\.00 {4}\+2\.90$/);
    expect(nyc[nycAt + 1]).toMatch(/A YES 50-51°F .* 0\.250 {2}0\.420m {4}5\.00 {4}\+3\.40$/);
    expect(nyc[nycAt + 2]).toMatch(/B YES 52-53°F .* 0\.200 {2}0\.180m {4}5\.00 {4}-0\.50$/);
    // one open edge trade (#7000 exited): 16.13 x 0.760 = 12.2588 - 10.00 = +2.26
    expect(live.filter((l) => / x\d/.test(l))).toEqual([
      expect.stringMatching(/edge +NO {2}52-53°F x16\.13 .* 0\.620 {2}0\.760m {3}10\.00 {4}\+2\.26$/),
    ]);
    const totals = rows.slice(rows.findIndex((l) => l.includes('TOTALS BY FAMILY')));
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
    const row = group(rows, 'New York City 2026-11-21').find((l) => l.includes('no24'));
    expect(row).toContain('0.550r');
    expect(row).toMatch(/ \+1\.00$/);
    // a lock has no mark of its own: no price, its stake (20 x 0.35 = 7.00), no P&L
    const lockRow = group(rows, 'Paris 2026-11-21').find((l) => l.includes(' peak '));
    expect(lockRow).toMatch(/— +7\.00 +—$/);
    app.unmount();
  });

  it('Enter shows the selected position as labelled fields, J its record as stored and back', async () => {
    const app = await render(decidedDays(scene()), 60);
    // the cursor starts on the first position listed, London's no24 #102, under the grand total, the LIVE DAYS heading,
    // the column titles and London's header, where Enter opens nothing: they are passed over
    await app.pane('3');
    const first = (f: string) => lines(f)[7] ?? '';
    await app.until((f) => first(f).startsWith('›') && first(f).includes('52-53°F'), 'the first record selected');
    // j to the next position (London's lock), k back; k again stays (nothing above opens)
    await app.press('j');
    await app.until((f) => (lines(f)[8] ?? '').startsWith('›'), 'the second position selected');
    await app.press('k');
    await app.until((f) => first(f).startsWith('›'), 'the first record again');
    await app.press('k');
    await app.until((f) => first(f).startsWith('›') && !(lines(f)[6] ?? '').startsWith('›'), 'still the first');
    await app.press(KEYS.enter);
    const detail = lines(await app.until((f) => f.includes('SOURCE'), 'the detail'));
    expect(detail[1]).toMatch(/^no24 #102 .*J raw JSON · Esc back$/);
    // #102: London 52-53°F NO, 12.5 shares at 0.80 (10.00), quoted 0.76 on mkta: 9.50, -0.50
    expect(detail.slice(2, 23)).toEqual([
      'POSITION',
      '  family          no24',
      '  city            London (london)',
      '  market day      2026-11-21 · live',
      '  bucket          NO 52-53°F',
      'ENTRY',
      '  price           0.800',
      '  shares          12.5',
      '  stake           10.00',
      'NOW',
      '  price           0.760 (m: newest mkta quote)',
      '  value           9.50',
      '  P&L             -0.50',
      'MODEL',
      '  model           svc_pro',
      '  exact p         0.3000',
      '  predicted high  10°C · 50°F',
      'SOURCE',
      '  record          no24 #102',
      '  bucket slug     52-53f',
      '  outcome         open',
    ]);
    expect(detail.join('\n')).not.toContain('"current_no_price"');
    // J: the record as stored (the service's own mark 0.84 is in it), J again: the fields
    await app.press('J');
    const raw = await app.until((f) => f.includes('"current_no_price": 0.84'), 'the raw JSON');
    expect(lines(raw)[1]).toMatch(/^no24 #102 · as stored .*J fields · Esc back$/);
    await app.press('J');
    await app.until((f) => f.includes('  outcome         open'), 'the fields again');
    await app.press(KEYS.escape);
    await app.until((f) => f.includes('LIVE DAYS (today and ahead)'), 'the list again');

    // down to a decided day's record: London's 11-20 no24 #110, marked at its own 0.90
    const selected = (f: string) => lines(f).find((l) => l.startsWith('›')) ?? '';
    let frame = await app.until((f) => selected(f) !== '', 'a selection');
    for (let i = 0; i < 30 && !selected(frame).includes('0.900r'); i++) {
      const before = selected(frame);
      await app.press('j');
      frame = await app.until((f) => selected(f) !== before, 'the next position');
    }
    await app.press(KEYS.enter);
    const decided = lines(await app.until((f) => f.includes('SOURCE'), "a decided day's detail"));
    expect(decided).toContain('  market day      2026-11-20 · decided: the day is over, the service settles it');
    // 10 x 0.90 = 9.00 - 6.00
    expect(decided).toContain('  price           0.900 (r: the record’s own mark)');
    expect(decided).toContain('  P&L             +3.00');
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
