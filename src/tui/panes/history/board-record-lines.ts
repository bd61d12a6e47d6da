import type { BoardRecordSection, RecordSummary, RecordTotals } from '../../../board/board-record.js';
import { PAPER_STAKE_USD } from '../../../domain/paper-trade.js';
import { type Column, cellOf, rowCells, titleCells } from '../../format/columns.js';
import { percent, signedUsd, usd } from '../../format/numbers.js';
import { type Line, line, seg, type Tone } from '../../theme.js';

const right = 'right' as const;
const tone = (n: number): Tone | undefined => (n > 0 ? 'good' : n < 0 ? 'bad' : undefined);

/** One group of the record's trades: all, an edge band, a venue, an hour, a city. */
interface GroupRow {
  group: string;
  totals: RecordTotals;
}

const GROUP: Column<GroupRow>[] = [
  { title: 'group', width: 16, value: (r) => r.group },
  { title: 'trades', width: 7, align: right, value: (r) => String(r.totals.n) },
  { title: 'wins', width: 6, align: right, value: (r) => String(r.totals.wins) },
  { title: 'hit', width: 7, align: right, value: (r) => percent(r.totals.hitRate, 1) },
  { title: 'staked', width: 10, align: right, value: (r) => usd(r.totals.staked) },
];
const PNL: Column<GroupRow> = { title: 'P&L', width: 10, align: right, value: (r) => signedUsd(r.totals.pnl) };
const TAIL: Column<GroupRow>[] = [
  {
    title: 'ROI',
    width: 8,
    align: right,
    value: (r) => (r.totals.roi === null ? '—' : `${r.totals.roi > 0 ? '+' : ''}${percent(r.totals.roi, 1)}`),
  },
  { title: 'Brier', width: 7, align: right, value: (r) => (r.totals.brier === null ? '—' : r.totals.brier.toFixed(3)) },
];

const groupLine = (r: GroupRow, bold = false): Line =>
  line(
    seg(`  ${rowCells(GROUP, r).join('')}`, undefined, bold),
    seg(cellOf(PNL, r), tone(r.totals.pnl), bold),
    seg(rowCells(TAIL, r).join(''), undefined, bold),
  );

/** A summary's groups: all of it, then by edge band, venue and local hour (and by city, when `cities`). */
function summaryLines(s: RecordSummary, cities: boolean): Line[] {
  const out = [groupLine({ group: 'all', totals: s.all }, true)];
  for (const b of s.byBand) out.push(groupLine({ group: `edge ${b.band}`, totals: b.totals }));
  for (const v of s.byVenue) out.push(groupLine({ group: `venue ${v.venue}`, totals: v.totals }));
  for (const h of s.byHour)
    out.push(groupLine({ group: `${String(h.hour).padStart(2, '0')}:00 local`, totals: h.totals }));
  if (cities) for (const c of s.byCity) out.push(groupLine({ group: `city ${c.city_id}`, totals: c.totals }));
  return out;
}

const plural = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;

/**
 * How the summary spreads over city-days: its positions and the city-days they are on, then the largest day's P&L
 * beside the whole P&L, and its share of it where that says something (board-record.ts `recordSpread`).
 */
function spreadLines(s: RecordSummary): Line[] {
  const { positions, cityDays, largestDay: day } = s.spread;
  const out = [line(seg(`  ${plural(positions, 'position')} on ${plural(cityDays, 'city-day')}`))];
  if (day) {
    const share = day.share === null ? '' : ` (${percent(day.share)})`;
    const text = `  largest day ${day.city_id} ${day.local_date}: ${signedUsd(day.pnl)} of ${signedUsd(s.all.pnl)} P&L${share}`;
    out.push(line(seg(text)));
  }
  return out;
}

const titles: Line = line(seg(`  ${titleCells([...GROUP, PNL, ...TAIL]).join('')}`, 'muted'));

/**
 * History's `BOARD'S RECORD` (DESIGN 4 "the board's record"): the paper trades the board offered on the cache's
 * settled days, whole hours 09:00-16:00 local, where its effective edge was at least `edgeMin`, settled by the day's
 * outcome; the whole cache's, then the History filter's city's when it names one.
 */
export function boardRecordLines(record: BoardRecordSection, edgeMin: number): Line[] {
  const out: Line[] = [
    line(seg("BOARD'S RECORD (the board's edges, as paper trades on settled days)", 'accent', true)),
    line(
      seg(
        `  at each whole hour 09:00-16:00 local, each bucket side with an effective edge of at least ${edgeMin.toFixed(2)}`,
        'muted',
      ),
    ),
    line(
      seg(
        `  bought for ${usd(PAPER_STAKE_USD)} USD at its venue's price then · Brier: mean of (p of the side - won)^2`,
        'muted',
      ),
    ),
  ];
  if (record.all.all.n === 0) {
    out.push(
      line(seg('  no trade: no settled day with venue prices and a desk forecast at these hours cached', 'muted')),
    );
    return out;
  }
  out.push(
    line(seg('  the whole cache', undefined, true)),
    ...spreadLines(record.all),
    titles,
    ...summaryLines(record.all, true),
  );
  if (record.city) {
    out.push([], line(seg(`  city ${record.city.city_id}`, undefined, true)));
    if (record.city.summary.all.n === 0) out.push(titles, line(seg('  no trade in this city', 'muted')));
    else out.push(...spreadLines(record.city.summary), titles, ...summaryLines(record.city.summary, false));
  }
  return out;
}
