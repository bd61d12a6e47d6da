import { fitLine, type Line, seg } from '../../theme.js';
import { ensembleLines, modelRangeLines, primaryLines } from './desk-sections.js';
import {
  bucketLines,
  currentLines,
  type ForecastView,
  headerLines,
  hourlyLines,
  payoffSection,
} from './forecast-sections.js';

/** Two columns from this width on; below it the sections stack. */
const TWO_COLUMNS = 110;

/**
 * The pane's page: the header, then the forecasts (primary, ensemble, models) beside what is happening (now, the
 * market's buckets, payoff by outcome, the hourly chart), or one under the other on a narrow terminal.
 */
export function forecastPage(v: ForecastView, width: number, height: number): Line[] {
  const two = width >= TWO_COLUMNS;
  const half = two ? Math.floor((width - 3) / 2) : width;
  const chartHeight = height >= 30 ? 10 : 7;
  const left = [...primaryLines(v, half), [], ...ensembleLines(v, half), [], ...modelRangeLines(v, half)];
  const right = [
    ...currentLines(v, half),
    [],
    ...bucketLines(v, half),
    [],
    ...payoffSection(v),
    [],
    ...hourlyLines(v, half, chartHeight),
  ];
  const body = two ? sideBySide(left, right, half) : [...left, [], ...right];
  return [...headerLines(v), [], ...body];
}

function sideBySide(left: Line[], right: Line[], half: number): Line[] {
  const out: Line[] = [];
  for (let i = 0; i < Math.max(left.length, right.length); i++) {
    out.push([...fitLine(left[i] ?? [], half), seg(' │ ', 'muted'), ...(right[i] ?? [])]);
  }
  return out;
}
