import type { Signal } from '../../../cache/index.js';

/** A probability or a return as a whole percent, half up (a roi of -0.125 is -12%). */
const wholePercent = (n: number) => `${Math.round(n * 100)}%`;

const money = (n: number) => n.toFixed(2);

/** The buckets of a signal: a pick's legs by leg and joined (`A 64-65°F + B 66-67°F`), or its one bucket. */
export function signalBuckets(s: Signal): string {
  return s.buckets.map((b) => (b.leg === null ? b.label : `${b.leg} ${b.label}`)).join(' + ');
}

/** What the signal says beyond its columns, in the trader's words: the list's note and the detail's reasoning. */
export function signalNote(s: Signal): string {
  switch (s.kind) {
    case 'kill':
      return s.reason ?? 'kill signal';
    case 'pick':
      return `${s.buckets.length} legs`;
    case 'addon':
      return `hedge of pick ${s.parent_pick_id?.slice(0, 8) ?? '?'}`;
    case 'edge-entry':
      return s.reason;
    case 'edge-exit':
      return `${s.operation}${s.pnl_usd === null ? '' : ` P&L ${money(s.pnl_usd)}`}: ${s.reason}`;
    case 'test':
      return `webhook test${s.message === null ? '' : `: ${s.message}`}`;
    case 'lock':
      return `locked at peak hour ${s.peak_hour}:00`;
    case 'lock-resolved':
      return `${s.hit ? 'HIT' : 'MISS'} ${s.pnl_usd >= 0 ? '+' : ''}${money(s.pnl_usd)}`;
    default: {
      const outcome = s.outcome ? ` · ${s.outcome.toUpperCase()} roi ${wholePercent(s.roi ?? 0)}` : '';
      if ('model_prob' in s.belief)
        return `p ${wholePercent(s.belief.model_prob)} edge ${s.belief.edge.toFixed(3)}${outcome}`;
      return `${s.belief.model} ${wholePercent(s.belief.model_exact_pct)} exact${outcome}`;
    }
  }
}
