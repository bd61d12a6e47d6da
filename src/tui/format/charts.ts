import { roundHalfUp } from '../../domain/settlement.js';
import { type Line, seg } from '../theme.js';
import { cell } from './text.js';

const EIGHTHS = ['', '▏', '▎', '▍', '▌', '▋', '▊', '▉'];

/** A horizontal bar of `fraction` (0..1) of `width` cells, in eighths of a cell. */
export function bar(fraction: number, width: number): string {
  const f = Math.max(0, Math.min(1, Number.isFinite(fraction) ? fraction : 0));
  const eighths = Math.round(f * width * 8);
  const full = Math.floor(eighths / 8);
  return `${'█'.repeat(full)}${EIGHTHS[eighths % 8] ?? ''}`.padEnd(width);
}

export interface Point {
  /** Local hour, 0..24 (fractions for readings between the hours). */
  hour: number;
  value: number;
}

const FORECAST_MARK = '·';
const METAR_MARK = '●';
const BOTH_MARK = '◉';
/** Every other bucket's band is shaded, so a band's rows read as one. */
const BAND_SHADE = '░';
const HIGH_LINE = '─';

/**
 * A bucket's band on the chart: the whole degrees of the chart's lattice that settle in it (DESIGN 4: in a °F market
 * under `metar_c`, the whole °C a bucket holds), [low, high], null an open end.
 */
export interface ChartBand {
  /** What the band's top row says: the bucket and its chance. */
  label: string;
  low: number | null;
  high: number | null;
  /** No value it settles on is reachable any more: its label muted. */
  dead: boolean;
}

/**
 * What the day is drawn against its buckets from. Every value is in the lattice's unit, whose whole degrees are what
 * the market settles on (°C under `metar_c`): a true high X reads as the whole degree c when c - 0.5 <= X < c + 0.5,
 * so each row of the chart is a slice of one whole degree and a band's edges fall between rows.
 */
export interface BucketChartInput {
  forecast: readonly Point[];
  metar: readonly Point[];
  nowHour: number | null;
  /** Lowest first. */
  bands: readonly ChartBand[];
  /** The desk's N(mu, sigma) of the day's high. */
  desk: { mu: number; sigma: number } | null;
  /** The METAR high so far, a whole degree of the lattice. */
  runningHigh: number | null;
  /** A whole degree of the lattice as the axis writes it, in the unit shown (`20°C`, `68.0°F`). */
  axis: (whole: number) => string;
}

/** The rows a degree gets at most: past that a taller page shows more degrees, not fatter ones. */
const MAX_ROWS_PER_DEGREE = 4;
const AXIS = 8;

/**
 * Which degrees the chart spans and how many rows each gets, for `rows` plot rows: every value drawn (the curve, the
 * readings, mu ± sigma, the running high), a degree at least one row; rows left over are more degrees, above first
 * (the higher buckets are what the rest of the day can still reach). Too many degrees for the rows: the coldest go
 * (the night's curve), never the high.
 */
export function chartScale(
  values: readonly number[],
  rows: number,
): { top: number; bottom: number; perDegree: number } {
  // each value read as the whole degree it settles on, as the venue rounds
  const whole = values.map(roundHalfUp);
  let hi = Math.max(...whole);
  let lo = Math.min(...whole);
  if (hi - lo + 1 > rows) lo = hi - rows + 1;
  const degrees = hi - lo + 1;
  const perDegree = Math.max(1, Math.min(MAX_ROWS_PER_DEGREE, Math.floor(rows / degrees)));
  const spare = Math.floor(rows / perDegree) - degrees;
  hi += Math.ceil(spare / 2);
  lo -= Math.floor(spare / 2);
  return { top: hi + 0.5, bottom: lo - 0.5, perDegree };
}

/**
 * The day's hourly forecast and METAR readings against the market's buckets drawn as horizontal bands, the desk's
 * mu ± sigma beside them and the running high as a line: one column group an hour, rows from warm to cold, as many
 * as `height` allows (two go to the hour axis). Marks differ by shape, not colour.
 */
export function bucketChart(input: BucketChartInput, width: number, height: number): Line[] {
  const { forecast, metar, desk, runningHigh, bands } = input;
  const drawn = [...forecast, ...metar].map((p) => p.value);
  const rows = height - 2;
  if (drawn.length === 0 || rows < 3) return [[seg('  no hourly forecast or readings yet', 'muted')]];
  // the desk's band, and two sigma above it: the next bucket up, what the rest of the day can still reach
  const desked = desk ? [desk.mu - desk.sigma, desk.mu + 2 * desk.sigma] : [];
  const scale = chartScale([...drawn, ...desked, ...(runningHigh === null ? [] : [runningHigh])], rows);
  const { top, perDegree } = scale;
  const plotRows = Math.round((top - scale.bottom) * perDegree);
  const per = Math.max(1, Math.min(3, Math.floor((width - AXIS - 2 - 12) / 24)));
  const cols = 24 * per;
  // row i holds [top - (i + 1) / perDegree, top - i / perDegree): a band's edge (a half degree) is between two rows
  const rowOf = (v: number) => Math.ceil((top - v) * perDegree - 1e-9) - 1;
  const grid: string[][] = Array.from({ length: plotRows }, () => Array.from({ length: cols }, () => ' '));
  const put = (p: Point, mark: string) => {
    const row = grid[rowOf(p.value)];
    if (!row) return;
    const x = Math.min(cols - 1, Math.max(0, Math.floor(p.hour * per)));
    const before = row[x];
    row[x] = before === ' ' || before === mark ? mark : BOTH_MARK;
  };
  for (const p of forecast) put(p, FORECAST_MARK);
  for (const p of metar) put(p, METAR_MARK);
  const bandAt = (row: number) => {
    const whole = roundHalfUp(top - (row + 0.5) / perDegree);
    return bands.findIndex((b) => (b.low === null || whole >= b.low) && (b.high === null || whole <= b.high));
  };
  const highRow = runningHigh === null ? -1 : rowOf(runningHigh);
  const out: Line[] = grid.map((cells, r) => {
    const band = bandAt(r);
    const rowTop = top - r / perDegree;
    const rowBottom = rowTop - 1 / perDegree;
    const whole = Math.floor(rowTop);
    // a whole degree is labelled on the row that holds it
    const axis = whole >= rowBottom && whole < rowTop ? input.axis(whole) : '';
    const fill = r === highRow ? HIGH_LINE : band >= 0 && band % 2 === 1 ? BAND_SHADE : ' ';
    const inDesk = desk !== null && rowBottom <= desk.mu + desk.sigma && rowTop > desk.mu - desk.sigma;
    const mu = desk !== null && desk.mu >= rowBottom && desk.mu < rowTop;
    const first = band >= 0 && (r === 0 || band !== bandAt(r - 1));
    const b = bands[band];
    return [
      seg(`${cell(axis, AXIS - 1, 'right')}┤`, 'muted'),
      ...cells.map((c) =>
        c === ' '
          ? seg(fill, r === highRow ? 'warn' : 'muted')
          : seg(c, c === METAR_MARK || c === BOTH_MARK ? 'accent' : c === FORECAST_MARK ? 'warn' : undefined),
      ),
      seg(mu ? ' μ' : inDesk ? ' ┃' : '  ', 'good', true),
      seg(first && b ? ` ${b.label}` : '', b?.dead ? 'muted' : undefined),
    ];
  });
  const ticks = Array.from({ length: cols }, (_, x) => {
    const hour = x / per;
    if (input.nowHour !== null && Math.floor(input.nowHour * per) === x) return '^';
    return x % per === 0 && hour % 6 === 0 ? '┬' : '─';
  }).join('');
  const hours = Array.from({ length: cols }, () => ' ');
  for (const h of [0, 6, 12, 18]) {
    const text = String(h).padStart(2, '0');
    hours[h * per] = text[0] ?? ' ';
    hours[h * per + 1] = text[1] ?? ' ';
  }
  out.push([seg(`${''.padStart(AXIS - 1)}└${ticks}`, 'muted')]);
  out.push([seg(`${''.padStart(AXIS)}${hours.join('')}`, 'muted')]);
  return out;
}
