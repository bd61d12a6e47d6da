import type { InsurancePickView } from '../../../cache/index.js';
import { PICK_NOT_RECEIVED } from '../../../domain/book-horizon.js';
import type { CityName } from '../../../domain/city-names.js';
import { familyTotals, type Mark, type PricedPick } from '../../../domain/position-pnl.js';
import { type Column, cellOf, rowCells, titleCells } from '../../format/columns.js';
import { price, signedUsd, usd } from '../../format/numbers.js';
import { cell } from '../../format/text.js';
import { utcStamp } from '../../format/time.js';
import { type Line, line, seg, type Tone } from '../../theme.js';
import type { PricedBook } from './positions-model.js';

/** A line of the Positions pane and, for a position, what Enter shows. */
export interface PositionLine {
  line: Line;
  detail: { title: string; json: unknown } | null;
}

const pnlTone = (pnl: number | null): Tone | undefined =>
  pnl === null ? 'muted' : pnl > 0 ? 'good' : pnl < 0 ? 'bad' : undefined;

const ENTRY: Column<Mark> = { title: 'entry', width: 7, align: 'right', value: (m) => price(m.entry) };
const NOW: Column<Mark> = {
  title: 'now',
  width: 7,
  align: 'right',
  value: (m) => (m.current === null ? '—' : `${price(m.current)}${m.source ?? ''}`),
};
const STAKE: Column<Mark> = { title: 'stake', width: 7, align: 'right', value: (m) => usd(m.stake) };
const PNL: Column<Mark> = { title: 'P&L', width: 8, align: 'right', value: (m) => signedUsd(m.pnl) };
const blank = (c: Column<Mark>): Column<Mark> => ({ ...c, value: () => '' });

/** entry, now (with its source), stake: the right-hand columns every position shares, before its P&L. */
const FIGURES = [ENTRY, NOW, STAKE];
/** A pick has no one price: its legs show theirs. */
const PICK_FIGURES = [blank(ENTRY), blank(NOW), STAKE];

function figures(m: Mark, columns = FIGURES): Line {
  return [seg(`${rowCells(columns, m).join(' ')} `), seg(cellOf(PNL, m), pnlTone(m.pnl), true)];
}

/**
 * A position's line, laid out when it is first shown: a book of thousands of records lays out only the screenful the
 * pane shows (a line costs about 10 µs: 1,500 of them held a key for 15 ms). A class, its getter on the prototype: an
 * object literal with a getter of its own is a slow object to make, and a book makes 1,500 of them at once.
 */
class LazyLine implements PositionLine {
  private built: Line | undefined;
  constructor(
    private readonly build: () => Line,
    readonly detail: PositionLine['detail'],
  ) {}
  get line(): Line {
    this.built ??= this.build();
    return this.built;
  }
}

/** A city's name and a space: New York City, the longest, as the board gives it. */
const CITY = 14;

const heading = (title: string): PositionLine => ({ line: line(seg(title, 'accent', true)), detail: null });
const columns = (desc: number): PositionLine => ({
  line: line(seg(`${cell('', desc + 2)}${titleCells([...FIGURES, PNL]).join(' ')}`, 'muted')),
  detail: null,
});
const none = (what: string): PositionLine => ({ line: line(seg(`  none ${what}`, 'muted')), detail: null });

function pickLines(p: PricedPick<InsurancePickView>, indent: string, desc: number, name: CityName): PositionLine[] {
  const kind = p.pick.trade_kind === 'addon' ? 'addon' : 'pick';
  const head = `${indent}${kind} ${p.pick.pick_id.slice(0, 8)} ${name(p.pick.city_id)} ${p.pick.market_date}`;
  const out: PositionLine[] = [
    {
      line: [seg(cell(head, desc)), ...figures(p.mark, PICK_FIGURES)],
      detail: { title: `Insurance ${kind} ${p.pick.pick_id}`, json: p.pick },
    },
  ];
  // legs sit under their pick's text, without the addon's branch mark
  const under = indent.replace('└', ' ');
  for (const l of p.legs) {
    const text = `${under}  ${l.leg.leg} ${l.leg.side} ${l.leg.bucket_label}`;
    out.push({
      line: [seg(cell(text, desc), 'muted'), ...figures(l.mark)],
      detail: { title: `Leg ${l.leg.leg}`, json: l.leg },
    });
  }
  for (const addon of p.addons) out.push(...pickLines(addon, `${indent}  └ `, desc, name));
  return out;
}

/**
 * DESIGN 4 "the book's horizon": what the cache holds of a pick it never received, apart from the picks it did. An
 * addon is a position held (its legs, stake and P&L, counted apart in the totals); a kill closed one the monitor
 * never saw open, shown with the legs it names and when, so nothing the service said is dropped.
 */
function notReceivedLines(p: PricedBook, desc: number, name: CityName): PositionLine[] {
  const addons = p.picks.filter((x) => x.pick.parent_not_received);
  if (addons.length === 0 && p.killsNotReceived.length === 0) return [];
  const out: PositionLine[] = [{ line: line(seg(`  ${PICK_NOT_RECEIVED}`, 'warn', true)), detail: null }];
  for (const addon of addons) {
    const [head, ...legs] = pickLines(addon, '    ', desc, name);
    const parent = `pick ${addon.pick.parent_pick_id?.slice(0, 8)} not received`;
    out.push({ line: [seg(cell(`    ${parent}`, desc), 'warn')], detail: null }, head as PositionLine, ...legs);
  }
  for (const kill of p.killsNotReceived) {
    const at = kill.killed_at === null ? '' : ` at ${utcStamp(Date.parse(kill.killed_at))}`;
    const legs = kill.legs.map((l) => `${l.leg} ${l.bucket_label}`).join(', ');
    const text = `    kill ${kill.pick_id.slice(0, 8)} ${name(kill.city_id)} ${kill.market_date}${at}: ${legs}`;
    out.push({
      line: line(seg(cell(text, desc + 34), 'muted')),
      detail: { title: `Kill of ${kill.pick_id}`, json: kill },
    });
  }
  return out;
}

type Total = ReturnType<typeof familyTotals>[number];

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

/** The Positions pane as lines: each family's open positions (their cities by name), then the totals by family. */
export function positionLines(p: PricedBook, width: number, name: CityName): PositionLine[] {
  // the description takes what the figures (entry, now, stake, P&L: 34 columns) leave
  const desc = Math.max(30, Math.min(70, width - 38));
  const out: PositionLine[] = [heading('STRATEGY RECORDS (open)'), columns(desc)];
  if (p.strategies.length === 0) out.push(none('open'));
  for (const s of p.strategies) {
    const r = s.item;
    const text = () =>
      `  ${cell(s.family, 14)}${cell(name(r.city_id), CITY)}${cell(r.local_date, 11)}${r.side.padEnd(4)}${r.bucket_label}`;
    out.push(
      new LazyLine(() => [seg(cell(text(), desc)), ...figures(s.mark)], { title: `${s.family} #${r.id}`, json: r }),
    );
  }
  out.push({ line: [], detail: null }, heading('FUSION LOCKS (unresolved)'));
  if (p.locks.length === 0) out.push(none('unresolved'));
  for (const l of p.locks) {
    const lock = l.item;
    const text = () =>
      `  ${cell(name(lock.city_id), CITY)}${cell(lock.local_date, 11)}peak ${String(lock.peak_hour).padStart(2)}  YES ${lock.bucket_label}`;
    out.push(
      new LazyLine(() => [seg(cell(text(), desc)), ...figures(l.mark)], {
        title: `Fusion lock ${lock.id}`,
        json: lock,
      }),
    );
  }
  out.push({ line: [], detail: null }, heading('INSURANCE PICKS (live)'));
  // the book's horizon (DESIGN 4): a day that began before it misses the picks made before it, and says so
  if (p.picksNote !== null) out.push({ line: line(seg(`  ${p.picksNote}`, 'warn')), detail: null });
  const received = p.picks.filter((x) => !x.pick.parent_not_received);
  if (received.length === 0) out.push(none('live'));
  for (const pick of received) out.push(...pickLines(pick, '  ', desc, name));
  out.push(...notReceivedLines(p, desc, name));
  out.push({ line: [], detail: null }, heading('EDGE TRADES (open)'));
  if (p.trades.length === 0) out.push(none('open'));
  for (const t of p.trades) {
    const trade = t.item;
    const text = () =>
      `  ${cell(name(trade.city_id), CITY)}${cell(trade.market_date, 11)}${trade.side.padEnd(4)}${trade.bucket_label} x${trade.entry?.qty ?? '—'}`;
    out.push(
      new LazyLine(() => [seg(cell(text(), desc)), ...figures(t.mark)], {
        title: `Edge trade #${trade.engine_trade_id}`,
        json: trade,
      }),
    );
  }
  out.push({ line: [], detail: null }, heading('TOTALS BY FAMILY'));
  out.push({ line: line(seg(`  ${titleCells([...TOTALS, UNREALISED]).join('')}`, 'muted')), detail: null });
  const totals = familyTotals(p);
  for (const t of totals) {
    out.push({
      line: [seg(`  ${rowCells(TOTALS, t).join('')}`), seg(cellOf(UNREALISED, t), pnlTone(t.mark.pnl), true)],
      detail: null,
    });
  }
  if (p.picksNote !== null)
    out.push({ line: line(seg(`  insurance staked and unrealised: ${p.picksNote}`, 'muted')), detail: null });
  const cut = totals.filter((t) => t.open > t.count);
  if (cut.length > 0) {
    const which = cut.map((t) => `${t.family} ${t.count} of ${t.open}`).join(', ');
    out.push({ line: line(seg(`  staked and unrealised cover the newest listed: ${which}`, 'muted')), detail: null });
  }
  return out;
}
