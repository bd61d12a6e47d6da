/**
 * A series drawn one character a point (`▁▂▃▄▅▆▇█`), for the prices of a bucket through the day and the desk's mu and
 * sigma (cache `daySeries`). The scale is given, not taken from the series: prices drawn on 0..1 compare across rows
 * (a bucket at 0.40 all day is a flat `▄` on every row, not a line stretched to its own small moves).
 */

/** The eight levels, lowest first. */
export const SPARK_LEVELS = '▁▂▃▄▅▆▇█';

/** The values the lowest and the highest level stand for. */
export interface SparkScale {
  min: number;
  max: number;
}

/** A price's scale: 0 to 1, the same on every row. */
export const PRICE_SCALE: SparkScale = { min: 0, max: 1 };

/** What a point without a value is drawn as by default: a blank, so a gap reads as no price, never as a low one. */
export const SPARK_GAP = ' ';

/**
 * The level of a value: the scale cut in eight equal bands (0 to 0.125 of the way `▁`, ..., 0.875 to 1 `█`), a value
 * outside it at the nearer end. On a scale of no width (a flat series scaled to itself) every value is the middle
 * level `▄`, neither high nor low.
 */
function levelOf(value: number, { min, max }: SparkScale): string {
  if (!(max > min)) return SPARK_LEVELS[3] as string;
  const band = Math.floor(((value - min) / (max - min)) * SPARK_LEVELS.length);
  return SPARK_LEVELS[Math.min(SPARK_LEVELS.length - 1, Math.max(0, band))] as string;
}

/**
 * A series as a sparkline, one character a point, oldest first: each value at its level on `scale` (prices: 0..1), a
 * null or non-finite value drawn as `gap`.
 */
export function sparkline(
  values: readonly (number | null)[],
  scale: SparkScale = PRICE_SCALE,
  gap: string = SPARK_GAP,
): string {
  return values.map((v) => (v === null || !Number.isFinite(v) ? gap : levelOf(v, scale))).join('');
}

/**
 * A scale fitted to series that share it (mu through the day; both venues of a row): their least and greatest
 * values; `floor` pins the bottom (0 for sigma, so a halving reads as one). Null when no series has a value.
 */
export function scaleOf(series: readonly (readonly (number | null)[])[], floor?: number): SparkScale | null {
  const values = series.flat().filter((v): v is number => v !== null && Number.isFinite(v));
  if (values.length === 0) return null;
  return { min: floor ?? Math.min(...values), max: Math.max(...values) };
}
