import type { HourlyHits, MeanScore } from '../../../domain/calibration.js';
import type { CalibrationSummary, VenueCalibration } from '../../../domain/calibration-summary.js';
import { type Column, cellOf, rowCells, titleCells } from '../../format/columns.js';
import { percent } from '../../format/numbers.js';
import { type Line, line, seg, type Tone } from '../../theme.js';

const right = 'right' as const;
const f3 = (n: number) => n.toFixed(3);

/** One city's (or all cities') desk-against-venue scores. */
interface ScoreRow extends VenueCalibration {
  city: string;
}

const LEAD: Column<ScoreRow>[] = [
  { title: 'city', width: 11, value: (r) => r.city },
  { title: 'venue', width: 6, value: (r) => r.venue },
  { title: 'days', width: 5, align: right, value: (r) => String(r.days) },
];
/** desk then venue, for one score: the desk's cell toned by whether it beats the venue. */
const pair = (of: (m: MeanScore) => number, show: (n: number) => string): Column<ScoreRow>[] => [
  { title: 'desk', width: 8, align: right, value: (r) => show(of(r.desk)) },
  { title: 'venue', width: 7, align: right, value: (r) => show(of(r.prices)) },
];
/** The line over the titles naming each pair of columns. */
const GROUPS = `  ${' '.repeat(22)}${['Brier', 'log loss', 'fav won'].map((g) => g.padStart(15)).join('')}`;
const BRIER = pair((m) => m.brier, f3);
const LOG_LOSS = pair((m) => m.logLoss, f3);
const FAVOURITE = pair(
  (m) => m.favouriteHit,
  (n) => percent(n),
);

/** Lower is better for Brier and log loss, higher for the favourite's wins. */
const deskTone = (desk: number, venue: number, lowerIsBetter: boolean): Tone | undefined =>
  desk === venue ? undefined : desk < venue === lowerIsBetter ? 'good' : 'bad';

function scoreLine(r: ScoreRow, bold = false): Line {
  const cells = (columns: Column<ScoreRow>[], desk: number, venue: number, lowerIsBetter: boolean) => [
    seg(cellOf(columns[0] as Column<ScoreRow>, r), deskTone(desk, venue, lowerIsBetter), bold),
    seg(cellOf(columns[1] as Column<ScoreRow>, r), undefined, bold),
  ];
  return line(
    seg(`  ${rowCells(LEAD, r).join('')}`, undefined, bold),
    ...cells(BRIER, r.desk.brier, r.prices.brier, true),
    ...cells(LOG_LOSS, r.desk.logLoss, r.prices.logLoss, true),
    ...cells(FAVOURITE, r.desk.favouriteHit, r.prices.favouriteHit, false),
  );
}

/** The hours the by-hour table shows: every other hour, so the day fits 80 columns. */
export const SHOWN_HOURS = Array.from({ length: 12 }, (_, i) => 2 * i);

interface HourRow {
  city: string;
  byHour: HourlyHits;
}
const HOURS: Column<HourRow>[] = [
  { title: 'city', width: 11, value: (r) => r.city },
  { title: 'days', width: 5, align: right, value: (r) => String(r.byHour.days) },
  ...SHOWN_HOURS.map((h) => ({
    title: `${String(h).padStart(2, '0')}h`,
    width: 5,
    align: right,
    value: (r: HourRow) => percent(r.byHour.days ? (r.byHour.hits[h] ?? 0) / r.byHour.days : null),
  })),
];

const titles = <Row>(columns: readonly Column<Row>[]): Line => line(seg(`  ${titleCells(columns).join('')}`, 'muted'));

/**
 * Calibration in History's summaries (issue 14): per city, the desk's bucket probabilities at 12:00 local against each
 * venue's prices then, on settled days; and by hour of the local day, how often the running high already settled at
 * the day's value.
 */
export function calibrationLines(s: CalibrationSummary, dates: string): Line[] {
  const out: Line[] = [line(seg(`CALIBRATION AT 12:00 LOCAL (settled days, ${dates})`, 'accent', true))];
  out.push(
    line(seg('  Brier: sum over buckets of (p - won)^2 · log loss: -ln p(winner), p >= 0.001', 'muted')),
    line(seg('  lower is better · venue: YES prices / their sum · fav won: favourite settled', 'muted')),
  );
  out.push(line(seg(GROUPS, 'muted')), titles([...LEAD, ...BRIER, ...LOG_LOSS, ...FAVOURITE]));
  const rows = s.cities.flatMap((c) => c.venues.map((v) => ({ city: c.city_id, ...v })));
  if (rows.length === 0)
    out.push(
      line(
        seg(
          '  no settled day with a desk forecast and venue prices at 12:00 cached (backfill forecast_history)',
          'muted',
        ),
      ),
    );
  for (const r of rows) out.push(scoreLine(r));
  if (s.cities.length > 1) for (const v of s.all.venues) out.push(scoreLine({ city: 'ALL', ...v }, true));

  out.push(
    [],
    line(seg('RUNNING HIGH ALREADY AT THE SETTLED VALUE, BY LOCAL HOUR (share of settled days)', 'accent', true)),
  );
  out.push(titles(HOURS));
  const hours = s.cities.filter((c) => c.byHour.days > 0);
  if (hours.length === 0) out.push(line(seg('  no METAR readings of a settled day cached', 'muted')));
  for (const c of hours) out.push(line(`  ${rowCells(HOURS, { city: c.city_id, byHour: c.byHour }).join('')}`));
  if (hours.length > 1)
    out.push(line(seg(`  ${rowCells(HOURS, { city: 'ALL', byHour: s.all.byHour }).join('')}`, undefined, true)));
  return out;
}
