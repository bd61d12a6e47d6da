import { fitLine, type Line, seg } from '../../theme.js';
import { chartLines } from './bucket-chart.js';
import { ensembleLines, modelRangeLines, primaryLines, reasoningLines } from './desk-sections.js';
import { bucketLines, currentLines, type ForecastView, headerLines, payoffSection } from './forecast-sections.js';
import { venueSparklineLines } from './venue-sparklines.js';

/** Two columns from this width on; below it the sections stack. */
const TWO_COLUMNS = 110;
/** The fewest rows the chart is drawn in, whatever the page: under it the bands are too few to read. */
const LEAST_CHART = 12;

const joined = (...sections: Line[][]): Line[] =>
  sections.filter((s) => s.length > 0).flatMap((s, i) => (i === 0 ? s : [[], ...s]));

/**
 * The pane's page, what a trader trades by first. Two columns: the buckets with both venues, the payoff, the sources
 * now and the desk and its models on the left, beside the day drawn against the buckets as tall as the page; the
 * prices and the desk through the day, then the desk's reasoning under both. One column (80): buckets and prices,
 * the chart a page tall, through the day, the models, the sources and the payoff, the reasoning last.
 */
export function forecastPage(v: ForecastView, width: number, height: number): Line[] {
  const header = [...headerLines(v, width), []];
  if (width >= TWO_COLUMNS) {
    const half = Math.floor((width - 3) / 2);
    const left = joined(
      bucketLines(v, half),
      payoffSection(v),
      currentLines(v, half),
      primaryLines(v, half),
      ensembleLines(v, half),
      modelRangeLines(v, half),
    );
    // the chart fills the rows the page shows under the header, less what goes under the two columns (the day's
    // sparklines, the reasoning), or the left column's if longer: neither half is left empty
    const under = joined(sparklineLines(v, width), reasoningLines(v, width));
    const below = under.length ? under.length + 1 : 0;
    const right = chartLines(v, half, Math.max(LEAST_CHART, left.length, height - header.length - below));
    return [...header, ...sideBySide(left, right, half), ...joined([], under)];
  }
  return [
    ...header,
    ...joined(
      bucketLines(v, width),
      chartLines(v, width, Math.max(LEAST_CHART, height - 1)),
      sparklineLines(v, width),
      primaryLines(v, width),
      ensembleLines(v, width),
      modelRangeLines(v, width),
      currentLines(v, width),
      payoffSection(v),
      reasoningLines(v, width),
    ),
  ];
}

function sideBySide(left: Line[], right: Line[], half: number): Line[] {
  const out: Line[] = [];
  for (let i = 0; i < Math.max(left.length, right.length); i++) {
    out.push([...fitLine(left[i] ?? [], half), seg(' │ ', 'muted'), ...(right[i] ?? [])]);
  }
  return out;
}

/** Both venues' prices of each bucket and the desk's mu and sigma through the day (venue-sparklines.ts). */
const sparklineLines = (v: ForecastView, width: number): Line[] =>
  venueSparklineLines({ series: v.series, buckets: v.day.buckets, unit: v.day.market.unit, tz: v.city.tz }, width);
