import { describe, expect, it } from 'vitest';
import type { DaySeries } from '../../../../src/cache/index.js';
import { venueSparklineLines } from '../../../../src/tui/panes/forecasts/venue-sparklines.js';
import type { Line } from '../../../../src/tui/theme.js';

/**
 * New York's day through 09:00Z (04:00 local) in 4 columns of 15 minutes (cache/market/day-series.ts's test day):
 * 54-55°F on both venues, 56-57°F on mkta alone, the desk from 54.5 ± 1.8 to 56.3 ± 1.26 °F.
 */
const SERIES: DaySeries = {
  fromMs: Date.parse('2026-11-24T08:00:00Z'),
  toMs: Date.parse('2026-11-24T09:00:00Z'),
  stepMs: 900_000,
  columns: 4,
  buckets: [
    { slug: '54-55f', label: '54-55°F', mkta: [0.42, null, 0.45, 0.5], mktb: [0.41, 0.43, null, 0.47] },
    { slug: '56-57f', label: '56-57°F', mkta: [0.21, null, 0.25, 0.3], mktb: [null, null, null, null] },
  ],
  mu: [54.5, 55.4, 55.4, 56.3],
  sigma: [1.8, 1.44, 1.44, 1.26],
};
const CROSS = { buy: 'mkta', sell: 'mktb', ask: 0.45, bid: 0.57, margin: 0.1 } as const;
const BUCKETS = [
  { slug: '52-53f', label: '52-53°F', cross: null },
  { slug: '54-55f', label: '54-55°F', cross: CROSS },
  { slug: '56-57f', label: '56-57°F', cross: null },
];
const text = (l: Line) => l.map((s) => s.text).join('');

describe('through the day (venue-sparklines.ts)', () => {
  it('a row a bucket with a series: both venues on 0..1, the newest prices, CROSS; then the desk', () => {
    const lines = venueSparklineLines({ series: SERIES, buckets: BUCKETS, unit: 'F', tz: 'America/New_York' }, 100);
    expect(lines.map(text)).toEqual([
      'through the day  03:00-04:00 local · 15 min a column · YES on 0..1, a mkta b mktb',
      // x 8 on 0..1: 0.42 3.36 ▄, gap, 0.45 3.6 ▄, 0.50 4 ▅; 0.41 3.28 ▄, 0.43 3.44 ▄, gap, 0.47 3.76 ▄; 52-53°F has
      // no series: no row
      '54-55°F    a ▄ ▄▅ b ▄▄ ▄   .50   .47 CROSS',
      // 0.21 1.68 ▂, gap, 0.25 2 ▃, 0.30 2.4 ▃; mktb never quoted it
      '56-57°F    a ▂ ▃▃ b        .30     —',
      // mu on 54.5..56.3: 0 ▁, (55.4 - 54.5) / 1.8 = 0.5 -> 4 ▅, 1 -> █
      'desk mu      ▁▅▅█ 54.5→56.3°F',
      // sigma on 0..1.8: 1.8 █, 1.44 / 1.8 = 0.8 -> 6.4 ▇, 1.26 / 1.8 = 0.7 -> 5.6 ▆
      'desk sigma   █▇▇▆ 1.8→1.3°F',
    ]);
    expect(lines[1]?.at(-1)).toMatchObject({ text: ' CROSS', tone: 'warn' });
  });

  it('narrow: the newest columns that fit, the span they cover', () => {
    // 34 columns around the two sparklines: at 42, (42 - 34) / 2 = 4, all 4 columns; at 40, 3, under the least a
    // sparkline is drawn at (4): none, the newest prices kept
    const at42 = venueSparklineLines({ series: SERIES, buckets: BUCKETS, unit: 'F', tz: 'America/New_York' }, 42);
    expect(at42.map(text)).toContain('54-55°F    a ▄ ▄▅ b ▄▄ ▄   .50   .47 CROSS');
    // six columns read, four fit: the newest four, and the span they cover (03:00-04:00, not 02:30)
    const six: DaySeries = {
      ...SERIES,
      fromMs: Date.parse('2026-11-24T07:30:00Z'),
      columns: 6,
      buckets: [
        {
          slug: '54-55f',
          label: '54-55°F',
          mkta: [0.1, 0.2, 0.42, null, 0.45, 0.5],
          mktb: [null, null, null, null, null, null],
        },
      ],
      mu: [null, null, null, null, null, null],
    };
    const fitted = venueSparklineLines({ series: six, buckets: BUCKETS, unit: 'F', tz: 'America/New_York' }, 42);
    expect(fitted.map(text).join('\n')).toContain('03:00-04:00 local');
    expect(fitted.map(text)).toContain('54-55°F    a ▄ ▄▅ b        .50     — CROSS');
    const at40 = venueSparklineLines({ series: SERIES, buckets: BUCKETS, unit: 'F', tz: 'America/New_York' }, 40);
    expect(at40.map(text)).toContain('54-55°F    a  b    .50   .47 CROSS');
  });

  it('nothing to draw: no lines', () => {
    const empty: DaySeries = { ...SERIES, buckets: [], mu: [null, null, null, null], sigma: [null, null, null, null] };
    expect(venueSparklineLines({ series: empty, buckets: BUCKETS, unit: 'F', tz: 'America/New_York' }, 100)).toEqual(
      [],
    );
  });
});
