import { grandTotal } from '../../../domain/position-groups.js';
import { familyTotals, type Mark } from '../../../domain/position-pnl.js';
import { type Column, cellOf, rowCells, titleCells } from '../../format/columns.js';
import { signedUsd, usd } from '../../format/numbers.js';
import { type Line, line, seg, type Tone } from '../../theme.js';
import type { PricedBook } from './positions-model.js';

/** The totals of the Positions pane: the grand total on top, the table by family at the foot. */

export const pnlTone = (pnl: number | null): Tone | undefined =>
  pnl === null ? 'muted' : pnl > 0 ? 'good' : pnl < 0 ? 'bad' : undefined;

type Total = { family: string; open: number; count: number; priced: number; mark: Mark };

/** family, open, priced, staked: the totals table's columns before the unrealised P&L. */
const TOTALS: Column<Total>[] = [
  // wide enough for `pick not received`, the row of addons whose pick never reached the cache
  { title: 'family', width: 19, value: (t) => t.family },
  { title: 'open', width: 6, align: 'right', value: (t) => String(t.open) },
  { title: 'priced', width: 8, align: 'right', value: (t) => String(t.priced) },
  { title: 'staked', width: 10, align: 'right', value: (t) => usd(t.mark.stake) },
];
const UNREALISED: Column<Total> = {
  title: 'unrealised',
  width: 12,
  align: 'right',
  value: (t) => signedUsd(t.mark.pnl),
};

const plain = (text: string, tone: Tone = 'muted'): Line => line(seg(text, tone));

/**
 * The grand total of the book, the pane's first line: every open position (those whose pick was not received too, as
 * the board counts them), how many are priced, the stake and the unrealised P&L of those priced.
 */
export function grandTotalLine(p: PricedBook): Line {
  const all = grandTotal(familyTotals(p));
  return [
    seg('TOTAL', 'accent', true),
    seg(`  ${all.open} open · ${all.priced} priced · staked ${usd(all.mark.stake)} · unrealised `),
    seg(signedUsd(all.mark.pnl), pnlTone(all.mark.pnl), true),
  ];
}

/** The foot of the pane: the totals by family (`pick not received` on its own row), then their sum, `total`. */
export function totalsLines(p: PricedBook): Line[] {
  const totals = familyTotals(p);
  const row = (t: Total, bold = false): Line => [
    seg(`  ${rowCells(TOTALS, t).join('')}`, undefined, bold),
    seg(cellOf(UNREALISED, t), pnlTone(t.mark.pnl), true),
  ];
  const out: Line[] = [line(seg('TOTALS BY FAMILY', 'accent', true))];
  out.push(plain(`  ${titleCells([...TOTALS, UNREALISED]).join('')}`));
  for (const t of totals) out.push(row(t));
  out.push(row({ family: 'total', ...grandTotal(totals) }, true));
  if (p.picksNote !== null) out.push(plain(`  insurance staked and unrealised: ${p.picksNote}`));
  const cut = totals.filter((t) => t.open > t.count);
  if (cut.length > 0) {
    const which = cut.map((t) => `${t.family} ${t.count} of ${t.open}`).join(', ');
    out.push(plain(`  staked and unrealised cover the newest listed: ${which}`));
  }
  return out;
}
