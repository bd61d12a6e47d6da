import type { Bucket } from '../../../domain/buckets.js';
import type { Holding } from '../../../domain/held-buckets.js';
import { payoffByOutcome } from '../../../domain/payoff-by-outcome.js';
import type { Market } from '../../../domain/settlement.js';
import { signedUsd, usd } from '../../format/numbers.js';
import { cell } from '../../format/text.js';
import { type Line, line, seg } from '../../theme.js';

/**
 * Payoff by outcome: what every open position, pick and lock of the city-day pays, and its P&L, if the day settles in
 * each bucket (domain/payoff-by-outcome.ts). Outcomes the running high has passed say `dead`.
 */
export function payoffLines(
  holdings: readonly Holding[],
  outcomes: readonly Bucket[],
  market: Market,
  runningHighC: number | null,
  /** The whole degree a day over settled at (board/settled-day.ts): every other outcome is dead. */
  settled: number | null = null,
): Line[] {
  const mine = holdings.filter((h) => h.bucket.unit === market.unit);
  const title = (note: string) => line(seg('PAYOFF BY OUTCOME', 'accent', true), seg(`  ${note}`, 'muted'));
  if (mine.length === 0) return [title('no open position, pick or lock on this day')];
  const rows = payoffByOutcome(mine, outcomes, market, runningHighC, settled);
  const stake = rows[0]?.stake ?? mine.reduce((n, h) => n + h.stake, 0);
  const out: Line[] = [
    title(
      settled === null
        ? `${mine.length} holdings, ${usd(stake)} USD staked: if the day settles in`
        : `${mine.length} held through the day, ${usd(stake)} USD staked: it settled at ${settled}°${market.unit}`,
    ),
    line(
      seg(`  ${cell('bucket', 16)}${cell('held', 10)}${cell('pays', 9, 'right')}${cell('P&L', 10, 'right')}`, 'muted'),
    ),
  ];
  for (const r of rows) {
    const on = mine.filter((h) => h.bucket.low === r.bucket.low && h.bucket.high === r.bucket.high);
    const sides = [...new Set(on.map((h) => h.side))].join('+');
    const held = on.length > 1 ? `${on.length} ${sides}` : sides;
    const tone = r.dead ? 'muted' : r.pnl === null ? 'muted' : r.pnl > 0 ? 'good' : r.pnl < 0 ? 'bad' : undefined;
    out.push(
      line(
        `  ${cell(r.bucket.label, 16)}${cell(held, 10)}${cell(usd(r.payout), 9, 'right')}`,
        seg(cell(signedUsd(r.pnl), 10, 'right'), tone, !r.dead),
        seg(r.dead ? '  dead' : r.settledHere ? '  settled here' : '', 'muted'),
      ),
    );
  }
  return out;
}
