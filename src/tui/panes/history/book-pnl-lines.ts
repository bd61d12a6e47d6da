import type { EquityDay, RealisedSpan } from '../../../domain/book-equity.js';
import { pnlOverTime } from '../../../domain/book-equity.js';
import { signedUsd } from '../../format/numbers.js';
import { type Line, line, seg, type Tone } from '../../theme.js';

const tone = (n: number): Tone | undefined => (n > 0 ? 'good' : n < 0 ? 'bad' : undefined);

/** The newest settled days the curve draws a row each: two weeks, a glance, not a table. */
export const CURVE_DAYS = 14;
/** Cells each side of the curve's zero axis. */
const HALF = 20;

const span = (label: string, s: RealisedSpan): Line => [
  seg(`${label} `),
  seg(signedUsd(s.pnl), tone(s.pnl), true),
  seg(` (${s.n})`, 'muted'),
];

/**
 * A cumulative figure as a bar from the zero axis: gains to the right, losses to the left, the largest of the days
 * shown filling its half. Whole cells only: a loss's bar grows leftward, which eighth-cell blocks cannot draw.
 */
function curveBar(value: number, largest: number): string {
  const cells = largest === 0 ? 0 : Math.round((Math.abs(value) / largest) * HALF);
  const left = value < 0 ? '█'.repeat(cells) : '';
  const right = value > 0 ? '█'.repeat(cells) : '';
  return `${left.padStart(HALF)}│${right.padEnd(HALF)}`;
}

/**
 * History's `BOOK P&L` (issue 45 item 7): the book's realised P&L today, this week and all time, and its equity curve
 * by settled day (domain/book-equity.ts): each day's realised P&L, the running total and a bar of it. Days are UTC
 * dates of the service's clock; `nowMs` is that clock.
 */
export function bookPnlLines(days: readonly EquityDay[], nowMs: number): Line[] {
  const out: Line[] = [
    line(seg('BOOK P&L (realised: settled records, resolved locks, exited edge trades)', 'accent', true)),
    line(
      seg(
        '  by the UTC date of the service’s clock a position settled on (its local midnight) or was sold; a week from Monday',
        'muted',
      ),
    ),
  ];
  const { today, week, all } = pnlOverTime(days, nowMs);
  out.push([
    seg('  '),
    ...span('today', today),
    seg(' · '),
    ...span('this week', week),
    seg(' · '),
    ...span('all time', all),
  ]);
  if (days.length === 0) {
    out.push(line(seg('  no position settled in this cache yet', 'muted')));
    return out;
  }
  out.push(line(seg('  EQUITY CURVE (cumulative realised P&L by settled day)', undefined, true)));
  out.push(
    line(
      seg(
        `  ${'date'.padEnd(10)} ${'day'.padStart(9)} ${'cumulative'.padStart(11)}  ${'0'.padStart(HALF + 1)}`,
        'muted',
      ),
    ),
  );
  const shown = days.slice(-CURVE_DAYS);
  if (days.length > shown.length) {
    const earlier = days.length - shown.length;
    out.push(line(seg(`  ${earlier} earlier settled day${earlier === 1 ? '' : 's'} from ${days[0]?.date}`, 'muted')));
  }
  const largest = Math.max(...shown.map((d) => Math.abs(d.cumulative)));
  for (const d of shown) {
    out.push([
      seg(`  ${d.date} `),
      seg(signedUsd(d.pnl).padStart(9), tone(d.pnl)),
      seg(` ${signedUsd(d.cumulative).padStart(11)}  `, tone(d.cumulative), true),
      seg(curveBar(d.cumulative, largest), tone(d.cumulative)),
    ]);
  }
  out.push(
    line(seg('  insurance picks are not counted: the service reports no pick’s settlement or sale price', 'muted')),
  );
  return out;
}
