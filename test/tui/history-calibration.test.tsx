import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Cache, openCache } from '../../src/cache/index.js';
import { PANES } from '../../src/tui/panes/pane-registry.js';
import { MonitorApp } from '../../src/tui/render-monitor.js';
import { CITIES, fillCalibrationHistory } from '../helpers/calibration-history.js';
import { lines, renderTui, statusSource } from './fixtures.js';

const HOUR = 3_600_000;

let root: string;
let cache: Cache;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'history-calibration-'));
  cache = openCache(join(root, 'cache.db'));
  fillCalibrationHistory(cache);
});
afterEach(() => {
  cache.close();
  rmSync(root, { recursive: true, force: true });
});

const HISTORY_KEY = String(PANES.indexOf('history') + 1);
const now = () => new Date(Date.parse('2026-11-04T12:00:00Z') + HOUR);
/** The frame's lines from `title` on, up to the next blank line. */
const section = (frame: string, title: string) => {
  const all = lines(frame);
  const from = all.findIndex((l) => l.includes(title));
  expect(from, `${title} in\n${frame}`).toBeGreaterThanOrEqual(0);
  const to = all.findIndex((l, i) => i > from && l.trim() === '');
  return all.slice(from, to < 0 ? undefined : to);
};

/** The hand-built history of test/helpers/calibration-history.ts (its comment gives every value). */
describe('calibration in History’s summaries', () => {
  it('shows Brier, log loss and the favourite’s wins, desk against each venue, readable at 80 columns', async () => {
    const app = await renderTui(<MonitorApp cache={cache} source={statusSource()} now={now} />, {
      columns: 80,
      rows: 80,
    });
    await app.press(HISTORY_KEY, 's');
    const frame = await app.until((f) => f.includes('RUNNING HIGH ALREADY'), 'the calibration');
    const scores = section(frame, 'CALIBRATION AT 12:00 LOCAL');
    expect(scores[0]).toContain('(settled days, newest 30 dates)');
    expect(scores.find((l) => l.includes('city'))).toMatch(/city +venue +days +desk +venue +desk +venue +desk +venue/);
    // berlin on mkta, two days (the arithmetic is in test/domain/calibration.unit.test.ts):
    // desk Brier (0.201372 + 0.966065) / 2 = 0.584, venue (0.425620 + 1.14) / 2 = 0.783
    // desk log loss (0.381715 + 1.841022) / 2 = 1.111, venue (0.788457 + 2.302585) / 2 = 1.546
    // favourites: each won on 11-01 only, 50%
    expect(scores).toContainEqual(
      expect.stringMatching(/^ {2}berlin +mkta +2 +0\.584 +0\.783 +1\.111 +1\.546 +50% +50%$/),
    );
    // berlin on mktb, 11-01 only: desk 0.201, 0.382; venue 0.1^2 + 0.2^2 + (0.6 - 1)^2 + 0.1^2 = 0.22, -ln 0.6 = 0.511
    expect(scores).toContainEqual(
      expect.stringMatching(/^ {2}berlin +mktb +1 +0\.201 +0\.220 +0\.382 +0\.511 +100% +100%$/),
    );
    // nyc settled but had no forecast cached: not scored; ALL is berlin's
    expect(scores.some((l) => l.includes('nyc'))).toBe(false);
    expect(scores).toContainEqual(expect.stringMatching(/^ {2}ALL +mkta +2 +0\.584 +0\.783 +1\.111 +1\.546/));
    for (const l of scores) expect(l.length).toBeLessThanOrEqual(80);

    const hours = section(frame, 'RUNNING HIGH ALREADY AT THE SETTLED VALUE');
    expect(hours[1]).toMatch(/city +days +00h +02h +04h .* 20h +22h$/);
    // berlin: 20.6 at 12:00 settles at 21 (11-01, a hit from 12h), 23.0 at 13:00 (11-02, from 13h)
    expect(hours).toContain(`  berlin         2${'   0%'.repeat(6)}  50%${' 100%'.repeat(5)}`);
    // nyc: 53.6 °F (12 °C) at 10:00 settles at 54 (from 10h)
    expect(hours).toContain(`  nyc            1${'   0%'.repeat(5)}${' 100%'.repeat(7)}`);
    // all three days: 10h 1/3, 12h 2/3, 14h 3/3
    expect(hours).toContain(`  ALL            3${'   0%'.repeat(5)}  33%  67%${' 100%'.repeat(5)}`);
    for (const l of hours) expect(l.length).toBeLessThanOrEqual(80);
    app.unmount();
  });

  it('follows the filter: one city, and a date range', async () => {
    // tall enough for the board's record of the whole cache and of the city, each with its spread, above the calibration
    const app = await renderTui(<MonitorApp cache={cache} source={statusSource()} now={now} />, {
      columns: 120,
      rows: 70,
    });
    await app.press(HISTORY_KEY, '/', ...'berlin 2026-11-02..2026-11-03'.split(''), '\r', 's');
    const frame = await app.until((f) => f.includes('RUNNING HIGH ALREADY'), 'the summaries');
    const scores = section(frame, 'CALIBRATION AT 12:00 LOCAL');
    expect(scores[0]).toContain('(settled days, 2026-11-02..2026-11-03)');
    // 11-02 alone: desk 0.966, 1.841, its favourite lost; venue 1.14, ln 10 = 2.303
    expect(scores).toContainEqual(
      expect.stringMatching(/^ {2}berlin +mkta +1 +0\.966 +1\.140 +1\.841 +2\.303 +0% +0%$/),
    );
    expect(scores.some((l) => /mktb|ALL/.test(l))).toBe(false);
    const hours = section(frame, 'RUNNING HIGH ALREADY AT THE SETTLED VALUE');
    expect(hours).toContain(`  berlin         1${'   0%'.repeat(7)}${' 100%'.repeat(5)}`);
    expect(hours.some((l) => l.includes('nyc'))).toBe(false);
    app.unmount();
  });

  it('adds a day that settles while the summaries show', async () => {
    const app = await renderTui(<MonitorApp cache={cache} source={statusSource()} now={now} />, {
      columns: 80,
      rows: 80,
    });
    await app.press(HISTORY_KEY, 's');
    await app.until((f) => /berlin +mkta +2 /.test(f), 'two scored days');
    // 11-03 settles at 24: scored as 11-02 was (no reading by noon, the top tail won, the same prices and forecast)
    const open = JSON.parse(cache.export.rows('fusion-locks').find((j) => j.includes('2026-11-03')) as string);
    cache.resources.upsertFusionLocks([{ ...open, resolved: true, actual_tmax_c: 24, actual_tmax_f: 75.2 }]);
    // desk Brier (0.201372 + 2 * 0.966065) / 3 = 0.711, venue (0.425620 + 2 * 1.14) / 3 = 0.902
    // desk log loss (0.381715 + 2 * 1.841022) / 3 = 1.355, venue (0.788457 + 2 * 2.302585) / 3 = 1.798; 1 of 3 won
    const frame = await app.until((f) => /berlin +mkta +3 /.test(f), 'the third day');
    const scores = section(frame, 'CALIBRATION AT 12:00 LOCAL');
    expect(scores).toContainEqual(
      expect.stringMatching(/^ {2}berlin +mkta +3 +0\.711 +0\.902 +1\.355 +1\.798 +33% +33%$/),
    );
    // 24.0 at 13:00 on 11-03: 12h 1 of 3, from 14h all three
    expect(section(frame, 'RUNNING HIGH ALREADY')).toContain(
      `  berlin         3${'   0%'.repeat(6)}  33%${' 100%'.repeat(5)}`,
    );
    app.unmount();
  });

  it('says what to backfill when no settled day can be scored', async () => {
    cache.close();
    rmSync(root, { recursive: true, force: true });
    root = mkdtempSync(join(tmpdir(), 'history-calibration-'));
    cache = openCache(join(root, 'cache.db'));
    cache.resources.upsertCities(CITIES);
    const app = await renderTui(<MonitorApp cache={cache} source={statusSource()} now={now} />, {
      columns: 80,
      rows: 60,
    });
    await app.press(HISTORY_KEY, 's');
    const frame = await app.until((f) => f.includes('RUNNING HIGH ALREADY'), 'the calibration');
    expect(frame).toContain('no settled day with a desk forecast and venue prices at 12:00 cached');
    expect(frame).toContain('no METAR readings of a settled day cached');
    app.unmount();
  });
});
