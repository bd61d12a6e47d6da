import { type Line, seg } from '../theme.js';

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

/**
 * The day's hourly forecast against the METAR readings so far, as a block chart: one column group an hour, rows
 * from the warmest to the coldest value. Marks differ by shape, not colour.
 */
export function hourlyChart(
  forecast: readonly Point[],
  metar: readonly Point[],
  nowHour: number | null,
  width: number,
  height: number,
  unitLabel: string,
): Line[] {
  const values = [...forecast, ...metar].map((p) => p.value);
  if (values.length === 0 || height < 4) return [[seg('  no hourly forecast or readings yet', 'muted')]];
  const lo = Math.floor(Math.min(...values));
  const hi = Math.max(lo + 1, Math.ceil(Math.max(...values)));
  const rows = height - 2;
  const label = 7;
  const per = Math.max(1, Math.min(3, Math.floor((width - label - 1) / 24)));
  const grid: string[][] = Array.from({ length: rows }, () => Array.from({ length: 24 * per }, () => ' '));
  const rowOf = (v: number) => Math.round(((hi - v) / (hi - lo)) * (rows - 1));
  const put = (p: Point, mark: string) => {
    const x = Math.min(24 * per - 1, Math.max(0, Math.floor(p.hour * per)));
    const row = grid[rowOf(p.value)];
    if (!row) return;
    const before = row[x];
    row[x] = before === ' ' || before === mark ? mark : BOTH_MARK;
  };
  for (const p of forecast) put(p, FORECAST_MARK);
  for (const p of metar) put(p, METAR_MARK);
  const out: Line[] = grid.map((cells, r) => {
    const v = hi - (r * (hi - lo)) / (rows - 1);
    const axis =
      r === 0 || r === rows - 1 || r === Math.floor((rows - 1) / 2)
        ? `${v.toFixed(0)}${unitLabel}`.padStart(label - 1)
        : ''.padStart(label - 1);
    return [
      seg(`${axis}┤`, 'muted'),
      ...cells.map((c) =>
        seg(c, c === METAR_MARK || c === BOTH_MARK ? 'accent' : c === FORECAST_MARK ? 'warn' : undefined),
      ),
    ];
  });
  const ticks = Array.from({ length: 24 * per }, (_, x) => {
    const hour = x / per;
    if (nowHour !== null && Math.floor(nowHour * per) === x) return '^';
    return x % per === 0 && hour % 6 === 0 ? '┬' : '─';
  }).join('');
  const hours = Array.from({ length: 24 * per }, () => ' ');
  for (const h of [0, 6, 12, 18]) {
    const text = String(h).padStart(2, '0');
    hours[h * per] = text[0] ?? ' ';
    hours[h * per + 1] = text[1] ?? ' ';
  }
  out.push([seg(`${''.padStart(label - 1)}└${ticks}`, 'muted')]);
  out.push([seg(`${''.padStart(label)}${hours.join('')}`, 'muted')]);
  return out;
}
