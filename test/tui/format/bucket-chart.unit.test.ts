import { describe, expect, it } from 'vitest';
import { bar, bucketChart, type ChartBand } from '../../../src/tui/format/charts.js';

const text = (l: { text: string }[]) => l.map((s) => s.text).join('');

/**
 * A °F market under metar_c, drawn on the whole-°C lattice (DESIGN 4): `49°F or below` holds 9 °C and under,
 * `50-51°F` 10, `52-53°F` 11, `54-55°F` 12 and 13, `56-57°F` 14, `58°F or higher` 15 and over.
 */
const BANDS: ChartBand[] = [
  { label: '49°F or below dead', low: null, high: 9, dead: true },
  { label: '50-51°F dead', low: 10, high: 10, dead: true },
  { label: '52-53°F dead', low: 11, high: 11, dead: true },
  { label: '54-55°F 90%', low: 12, high: 13, dead: false },
  { label: '56-57°F 9%', low: 14, high: 14, dead: false },
  { label: '58°F or higher 1%', low: 15, high: null, dead: false },
];
/** The axis in °F: 10 °C = 50.0, 11 = 51.8, 12 = 53.6, 13 = 55.4, 14 = 57.2. */
const axis = (c: number) => `${((c * 9) / 5 + 32).toFixed(1)}°F`;

describe('the day drawn against its buckets', () => {
  it('draws each bucket as the band of rows of the whole °C it holds, the running high a line, mu ± sigma beside', () => {
    // METAR 10, 11, 12 °C at 09, 10, 11 local; the curve 12.4 at 12:00 and 12.0 at 15:00; N(12, 1); high 12.
    // The scale spans the whole degrees of every value, mu - sigma = 11 and mu + 2 sigma = 14: 10..14, five degrees;
    // 10 plot rows (12 lines less the hour axis's two) give each degree two rows: top 14.5, row i holds
    // [14.5 - (i + 1) / 2, 14.5 - i / 2).
    const lines = bucketChart(
      {
        forecast: [
          { hour: 12, value: 12.4 },
          { hour: 15, value: 12 },
        ],
        metar: [
          { hour: 9, value: 10 },
          { hour: 10, value: 11 },
          { hour: 11, value: 12 },
        ],
        nowHour: 12,
        bands: BANDS,
        desk: { mu: 12, sigma: 1 },
        runningHigh: 12,
        axis,
      },
      70,
      12,
    ).map(text);
    // 70 columns: 8 of axis, 2 of gutter and 12 of label leave 48, two columns an hour (hour h at column 2h)
    const blank = ' '.repeat(48);
    const shade = '░'.repeat(48);
    // marks at columns 18 (09), 20 (10), 22 (11), 24 (12), 30 (15)
    const at = (fill: string, marks: [number, string][]) => {
      const cells = [...fill];
      for (const [x, m] of marks) cells[x] = m;
      return cells.join('');
    };
    expect(lines).toEqual([
      // 14 °C: 56-57°F, two rows, unshaded (every other band is shaded, counted from the lowest)
      ` 57.2°F┤${blank}   56-57°F 9%`,
      `       ┤${blank}  `,
      // 13 and 12 °C: 54-55°F, four rows shaded; mu ± sigma's [11, 13] from the row [13, 13.5) down
      ` 55.4°F┤${shade} ┃ 54-55°F 90%`,
      `       ┤${shade} ┃`,
      // [12, 12.5): the running high's row drawn as a line, the 11:00 reading (12) and the noon curve (12.4) and the
      // 15:00 one (12.0) on it, mu = 12 in it
      ` 53.6°F┤${at('─'.repeat(48), [
        [22, '●'],
        [24, '·'],
        [30, '·'],
      ])} μ`,
      `       ┤${shade} ┃`,
      // 11 °C: 52-53°F, unshaded; the 10:00 reading
      ` 51.8°F┤${at(blank, [[20, '●']])} ┃ 52-53°F dead`,
      `       ┤${blank}  `,
      // 10 °C: 50-51°F, shaded; the 09:00 reading
      ` 50.0°F┤${at(shade, [[18, '●']])}   50-51°F dead`,
      `       ┤${shade}  `,
      // the hours, now (12:00, column 24) marked
      `       └┬───────────┬───────────^───────────┬───────────`,
      `        00          06          12          18          `,
    ]);
  });

  it('a taller page gives the degrees more rows, and then more degrees, never fewer', () => {
    const input = {
      forecast: [],
      metar: [{ hour: 9, value: 12 }],
      nowHour: null,
      bands: BANDS,
      desk: null,
      runningHigh: 12,
      axis,
    };
    const plotRows = (height: number) => bucketChart(input, 70, height).filter((l) => text(l).includes('┤'));
    // one degree (12): 4 rows a degree at most, then degrees above and below: 20 rows = 5 degrees of 4, 10..14
    expect(plotRows(22).length).toBe(20);
    expect(
      plotRows(22)
        .map(text)
        .map((l) => l.slice(0, 7).trim())
        .filter(Boolean),
    ).toEqual(['57.2°F', '55.4°F', '53.6°F', '51.8°F', '50.0°F']);
    expect(plotRows(6).length).toBe(4);
  });
});

describe('a bar', () => {
  it('is its fraction of the width, in eighths of a cell', () => {
    // 68 / 72 of 40 cells = 37.78: 302 eighths, 37 cells and 6 eighths
    expect(bar(68 / 72, 40)).toBe(`${'█'.repeat(37)}▊  `);
  });
});
