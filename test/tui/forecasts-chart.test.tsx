import { afterAll, describe, expect, it } from 'vitest';
import { MonitorApp } from '../../src/tui/render-monitor.js';
import { handCaches } from '../helpers/cache-builder.js';
import { KEYS, lines, renderTui, statusSource } from './fixtures.js';
import { CHART_NOW, chartCache } from './forecasts-chart-fixture.js';

/* The hand-built New York day of forecasts-chart-fixture.ts: its comment works out every figure below. */
const caches = handCaches('forecasts-chart-');
afterAll(() => caches.close());

async function forecasts(size: { columns: number; rows: number }) {
  const cache = chartCache(caches.open());
  const app = await renderTui(
    <MonitorApp cache={cache} source={statusSource()} now={() => new Date(CHART_NOW)} initialCity="nyc" />,
    size,
  );
  await app.press('5');
  // at 80x24 the chart's first row is on the second page: its title says it is drawn
  await app.until(
    (f) => f.includes('(nyc) ·') && f.includes('DAY AGAINST THE BUCKETS') && (size.columns < 160 || f.includes('┤')),
    'the Forecasts pane and its chart',
  );
  return app;
}

/** A chart row read apart: its axis label, the plot's cells, the gutter (mu ± sigma) and the band's label. */
interface ChartRow {
  axis: string;
  plot: string;
  gutter: string;
  band: string;
}
/** The chart's plot rows in a page's lines (the part from its axis on), top first. */
function chartRows(page: string[]): ChartRow[] {
  return page.flatMap((l) => {
    const at = l.indexOf('┤');
    if (at < 7) return [];
    const rest = l.slice(at + 1);
    // the plot is two columns an hour here (48), then the gutter's two, then the band's label
    return [
      {
        axis: l.slice(at - 7, at).trim(),
        plot: rest.slice(0, 48),
        gutter: rest.slice(48, 50),
        band: rest.slice(50).trim(),
      },
    ];
  });
}

/** The rows of each band: from a row with its label to the row before the next label. */
function bands(rows: ChartRow[]): { band: string; axis: string[]; fills: string[] }[] {
  const out: { band: string; axis: string[]; fills: string[] }[] = [];
  for (const r of rows) {
    if (r.band) out.push({ band: r.band, axis: [], fills: [] });
    const last = out.at(-1);
    if (!last) continue;
    if (r.axis) last.axis.push(r.axis);
    // the row's fill: what is left of its plot once the marks are taken out
    // (the frame's lines come trimmed: a blank row's plot is padded back to its 48 cells)
    last.fills.push([...new Set(r.plot.padEnd(48).replace(/[·●◉]/g, ''))].join(''));
  }
  return out;
}

describe('Forecasts: the day against its buckets, both venues, at 160 and 80 columns', () => {
  it('160x45: the bands of the whole-°C lattice beside the buckets, mu ± sigma, the high a line, no empty half', async () => {
    const app = await forecasts({ columns: 160, rows: 45 });
    const page = lines(app.frame());
    const right = page.map((l) => l.split(' │ ')[1] ?? '');
    const rows = chartRows(right);
    // the chart takes the page: 45 rows less the tab bar, the line under it and the two status lines are the pane's
    // 41; less the header and its blank line 39; what goes under the two columns (the sparklines, the reasoning)
    // leaves less than the left column's 34 lines, so the chart is as long as it; less the title and legend's two
    // lines 32 rows to plot. The values span 6 °C (the night's curve) to 14 (mu + 2 sigma): 9 degrees, 3 rows each
    // (27), and one more degree fits (30 rows, 15 °C on top); the 2 rows left would be a third of a degree
    expect(rows.length).toBe(30);
    // each band's whole °C in °F on the axis (10 °C = 50.0 °F, 11 = 51.8, 12 = 53.6, 13 = 55.4, 14 = 57.2): 54-55°F
    // holds 12 and 13 °C, 52-53°F only 11, 56-57°F 14 (DESIGN 4); every other band shaded, from the lowest
    const drawn = bands(rows);
    expect(drawn.map((b) => [b.band, b.axis])).toEqual([
      ['58°F or higher 1%', ['59.0°F']],
      ['56-57°F 9%', ['57.2°F']],
      ['54-55°F 90%', ['55.4°F', '53.6°F']],
      ['52-53°F dead', ['51.8°F']],
      ['50-51°F dead', ['50.0°F']],
      ['49°F or below dead', ['48.2°F', '46.4°F', '44.6°F', '42.8°F']],
    ]);
    const fills = Object.fromEntries(drawn.map((b) => [b.band, [...new Set(b.fills)].sort()]));
    // 54-55 (the fourth band from the lowest) shaded, the running high's row (12 °C) a line across it
    expect(fills['54-55°F 90%']).toEqual(['─', '░']);
    expect(fills['52-53°F dead']).toEqual([' ']);
    expect(fills['50-51°F dead']).toEqual(['░']);
    expect(fills['56-57°F 9%']).toEqual([' ']);
    // the running high on 12 °C's row, mu (12 °C) on it; mu ± sigma over 11..13 °C
    const high = rows.filter((r) => r.plot.includes('─'));
    expect(high.map((r) => r.gutter)).toContain(' μ');
    expect(rows.filter((r) => r.gutter === ' μ').length).toBe(1);
    const desk = rows
      .filter((r) => r.gutter.trim())
      .map((r) => r.axis)
      .filter(Boolean);
    expect(desk).toEqual(['55.4°F', '53.6°F', '51.8°F']);
    // the left half holds the buckets and both venues; neither half is empty above the sparklines under both
    const left = page.map((l) => (l.split(' │ ')[0] ?? '').trimEnd());
    expect(left.find((l) => l.startsWith('  54-55°F'))).toMatch(
      /^ {2}54-55°F +12-13°C +90\.3% +0\.380\/0\.400 +0\.460\/0\.440 +Y\+49\.3 +Y\+45\.3 CROSS$/,
    );
    const beside = page.filter((l) => l.includes(' │ '));
    expect(beside.filter((l) => !(l.split(' │ ')[1] ?? '').trim())).toEqual([]);
    expect(page.findIndex((l) => l.startsWith('through the day'))).toBeGreaterThan(
      page.findLastIndex((l) => l.includes(' │ ')),
    );
    app.unmount();
  });

  it('both venues on every row; CROSS where the one’s ask is under the other’s bid after both costs, not at 0', async () => {
    const app = await forecasts({ columns: 80, rows: 24 });
    const page = lines(app.frame());
    const row = (label: string) => page.find((l) => l.startsWith(`  ${label} `));
    // 54-55: mkta bid 1 - 0.62 = 0.38 ask 0.40, mktb bid 0.46 ask 0.44; its ask 0.40 under mktb's bid 0.46 by 0.06,
    // 0.04 after the two costs: CROSS
    expect(row('54-55°F')).toMatch(/ 0\.380\/0\.400 +0\.460\/0\.440 +Y\+49\.3 +Y\+45\.3 CROSS$/);
    // 56-57: 0.22 - 0.20 - 0.01 - 0.01 = 0.00: no cross at the boundary; each venue's NO edge
    expect(row('56-57°F')).toMatch(/ 0\.190\/0\.200 +0\.220\/0\.230 +N\+9\.2 +N\+12\.2$/);
    // 58+: 0.071 - 0.05 - 0.02 = +0.001, a tenth of a point: CROSS
    expect(row('58°F or higher')).toMatch(/ 0\.040\/0\.050 +0\.071\/0\.080 +N\+2\.1 +N\+5\.2 CROSS$/);
    expect(page).toContain('  CROSS 54-55°F: buy YES mkta 0.400, sell mktb 0.460: +4.0 pts net');
    expect(page).toContain('  CROSS 58°F or higher: buy YES mkta 0.050, sell mktb 0.071: +0.1 pts net');
    app.unmount();
  });

  it('80 columns: buckets and prices, then the chart a page tall, then the models, the reasoning last', async () => {
    const app = await forecasts({ columns: 80, rows: 24 });
    // the first page opens on the buckets, under the city's line
    const first = lines(app.frame());
    const city = first.findIndex((l) => l.startsWith('New York City (nyc)'));
    // the run (fixture: forecast fetched 16:05Z) on a line of its own under the city's, then the buckets
    expect(first[city + 1]).toBe('forecast for 2026-11-24, fetched 11-24 16:05Z');
    expect(first.slice(city + 2).find((l) => l.trim())).toMatch(/^MARKET BUCKETS/);
    const seen: string[] = [];
    const titles =
      /^(MARKET BUCKETS|DAY AGAINST THE BUCKETS|PRIMARY|ENSEMBLE|MODELS Tmax|NOW|PAYOFF BY OUTCOME|REASONING)\b/;
    for (let page = 0; page < 12 && !seen.includes('REASONING'); page++) {
      for (const l of lines(app.frame())) {
        const t = l.match(titles)?.[1];
        if (t && !seen.includes(t)) seen.push(t);
      }
      await app.press(KEYS.pageDown);
    }
    expect(seen).toEqual([
      'MARKET BUCKETS',
      'DAY AGAINST THE BUCKETS',
      'PRIMARY',
      'ENSEMBLE',
      'MODELS Tmax',
      'NOW',
      'PAYOFF BY OUTCOME',
      'REASONING',
    ]);
    app.unmount();
  });

  it('through the day: each venue’s YES price of a bucket as a sparkline, with CROSS, and the desk’s mu', async () => {
    const app = await forecasts({ columns: 160, rows: 45 });
    await app.press(KEYS.pageDown);
    const page = lines(await app.until((f) => f.includes('through the day'), 'the sparklines'));
    // 32 columns of 15 minutes to 17:00Z (12:00 local): only the last, 16:45-17:00Z, holds the 16:55Z snapshot;
    // 0.40 and 0.44 are both in 0.375..0.5, the fourth level of eight
    const gap = ' '.repeat(31);
    expect(page).toContain(`54-55°F    a ${gap}▄ b ${gap}▄   .40   .44 CROSS`);
    // 0.20 and 0.23 in 0.125..0.25, the second level; no cross
    expect(page).toContain(`56-57°F    a ${gap}▂ b ${gap}▂   .20   .23`);
    // the desk's run fetched at 16:05Z is in force from the column ending 16:15Z: four columns of 12 °C = 53.6 °F
    expect(page.find((l) => l.startsWith('desk mu'))).toMatch(/ {31}▄▄▄▄ 53\.6→53\.6°F$/);
    app.unmount();
  });

  it('draws the models’ bars from zero, and says so', async () => {
    const app = await forecasts({ columns: 160, rows: 45 });
    const frame = app.frame();
    // gfs 11 °C = 51.8 °F, icon 13 °C = 55.4 °F: bars of 40 cells from 0 (the half is 78 wide: 78 - 26 = 52, at most
    // 40); gfs 51.8 / 55.4 x 40 = 37.40 cells: 299 eighths, 37 full and three eighths (from 50.5 °F, as before,
    // it was 1.3 / 5.9 x 40 = 8.8 cells)
    expect(frame).toContain('  bars from 0 to 55.4°F');
    expect(frame).toContain(`  gfs           51.8°F ${'█'.repeat(37)}▍`);
    expect(frame).toContain(`  icon          55.4°F ${'█'.repeat(40)}`);
    app.unmount();
  });
});
