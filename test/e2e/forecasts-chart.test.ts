import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCache } from '../../src/cache/index.js';
import { HandCache } from '../helpers/cache-builder.js';
import { chartCache } from '../tui/forecasts-chart-fixture.js';
import { startTui, type TuiProcess } from './terminal.js';

/**
 * Forecasts in a real pseudo-terminal: the built CLI on the hand-built New York day of tui/forecasts-chart-fixture.ts
 * (its comment works out every figure), offline, the CLI's clock at 17:00Z (12:00 in New York, world-clock.mjs).
 */
const WORLD_CLOCK = fileURLToPath(new URL('../helpers/world-clock.mjs', import.meta.url));
const root = mkdtempSync(join(tmpdir(), 'svc-e2e-forecasts-'));
const db = join(root, 'cache.db');
const env = {
  XDG_DATA_HOME: join(root, 'data'),
  XDG_CONFIG_HOME: join(root, 'config'),
  NODE_OPTIONS: `--import ${WORLD_CLOCK}`,
  WORLD_CLOCK_START: '2026-11-24T17:00:00Z',
};
const running: TuiProcess[] = [];
beforeAll(() => {
  chartCache(new HandCache(openCache(db))).close();
});
afterAll(() => {
  for (const tui of running) tui.kill();
  rmSync(root, { recursive: true, force: true });
});

describe('Forecasts in a pseudo-terminal', () => {
  it('160x45: the buckets with both venues and CROSS beside the bands; 80x24: the buckets first', async () => {
    const tui = startTui(['monitor', '--offline', '--db', db, '--city', 'nyc'], env, { cols: 160, rows: 45 });
    running.push(tui);
    await tui.waitFor('[1 Board]');
    tui.press('5');
    // the frame whole: xterm parses a large write in slices, so the chart's title can be on screen while rows under
    // it are still the board's; the sparklines' 54-55°F row is at the frame's foot, drawn after every chart row
    const wide = await tui.waitFor(/DAY AGAINST THE BUCKETS[\s\S]*^54-55°F +a .* CROSS$/m);
    const rows = wide.split('\n');
    // the 54-55°F row: mkta bid 1 - 0.62 = 0.38, ask 0.40; mktb 0.46 / 0.44; each venue's YES edge; CROSS (its
    // ask 0.40 under mktb's bid 0.46, 0.04 after both costs), beside the chart
    expect(rows.find((r) => r.startsWith('  54-55°F'))).toMatch(
      /^ {2}54-55°F +12-13°C +90\.3% +0\.380\/0\.400 +0\.460\/0\.440 +Y\+49\.3 +Y\+45\.3 CROSS +│ +\S*┤/,
    );
    // 56-57°F: 0.22 - 0.20 - 0.02 = 0, no CROSS
    expect(rows.find((r) => r.startsWith('  56-57°F'))).toMatch(/N\+9\.2 +N\+12\.2 +│/);
    // the band of 54-55°F: its label on its top row, 13 °C (55.4 °F) and 12 °C (53.6 °F, the running high's line and
    // mu) in it, shaded; 52-53°F's band (11 °C, 51.8 °F) under it, not shaded
    const chart = rows.map((r) => r.split(' │ ')[1] ?? '');
    const top = chart.findIndex((r) => r.endsWith(' 54-55°F 90%'));
    const next = chart.findIndex((r) => r.endsWith(' 52-53°F dead'));
    const band = chart.slice(top, next);
    expect(band.map((r) => r.slice(0, 7).trim()).filter(Boolean)).toEqual(['55.4°F', '53.6°F']);
    expect(band.filter((r) => /┤─+/.test(r) && r.includes(' μ'))).toHaveLength(1);
    expect(
      band.every((r) => /┤[░─●·◉]{48}/.test(r)),
      `the band's rows:\n${band.join('\n')}\n${wide}`,
    ).toBe(true);
    expect(chart[next]).toMatch(/┤ {48} ┃ 52-53°F dead$/);
    expect(chart.slice(next).find((r) => r.slice(0, 7).trim())).toMatch(/^ 51\.8°F┤/);

    tui.resize(80, 24);
    const narrow = await tui.waitFor(/^ {2}58°F or higher .* CROSS$/m);
    const lines = narrow.split('\n');
    const city = lines.findIndex((l) => l.startsWith('New York City (nyc)'));
    // the run (fixture: forecast fetched 16:05Z) on a line of its own under the city's, then the buckets
    expect(lines[city + 1]).toBe('forecast for 2026-11-24, fetched 11-24 16:05Z');
    expect(lines.slice(city + 2).find((l) => l.trim())).toMatch(/^MARKET BUCKETS/);
    expect(narrow).toContain('  CROSS 58°F or higher: buy YES mkta 0.050, sell mktb 0.071: +0.1 pts net');
    tui.press('q');
    expect((await tui.exited).exitCode).toBe(0);
  });
});
