import type { EdgeTradeView, InsurancePickView } from '../../../cache/index.js';
import { PICK_NOT_RECEIVED } from '../../../domain/book-horizon.js';
import type { CityName } from '../../../domain/city-names.js';
import { type DayGroup, dayGroups } from '../../../domain/position-groups.js';
import type { Mark, PricedPick } from '../../../domain/position-pnl.js';
import { type Column, cellOf, rowCells, titleCells } from '../../format/columns.js';
import { price, signedUsd, usd } from '../../format/numbers.js';
import { cell } from '../../format/text.js';
import { utcStamp } from '../../format/time.js';
import { type Line, line, seg } from '../../theme.js';
import {
  fieldLines,
  killFields,
  legFields,
  lockFields,
  pickFields,
  recordFields,
  tradeFields,
} from './position-fields.js';
import { grandTotalLine, pnlTone, totalsLines } from './position-totals.js';
import { dayDecided, type PricedBook } from './positions-model.js';

/** What Enter shows of a position: its labelled fields (position-fields.ts), and the row as stored one key further. */
export interface PositionDetail {
  title: string;
  json: unknown;
  fields?: () => Line[];
}

/** A line of the Positions pane and, for a position, what Enter shows. */
export interface PositionLine {
  line: Line;
  detail: PositionDetail | null;
}

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
/** A pick and a city-day have no one price: a pick's legs show theirs, a day its subtotal. */
const SUM_FIGURES = [blank(ENTRY), blank(NOW), STAKE];

function figures(m: Mark, columns = FIGURES, bold = false): Line {
  return [seg(`${rowCells(columns, m).join(' ')} `, undefined, bold), seg(cellOf(PNL, m), pnlTone(m.pnl), true)];
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

/** A position's kind, in the column its description starts with. */
const KIND = 14;

const heading = (title: string): PositionLine => ({ line: line(seg(title, 'accent', true)), detail: null });
const columns = (desc: number): PositionLine => ({
  line: line(seg(`${cell('', desc + 2)}${titleCells([...FIGURES, PNL]).join(' ')}`, 'muted')),
  detail: null,
});
const none = (what: string): PositionLine => ({ line: line(seg(`  none ${what}`, 'muted')), detail: null });
const gap: PositionLine = { line: [], detail: null };
const plural = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;

function pickLines(
  p: PricedPick<InsurancePickView>,
  indent: string,
  desc: number,
  name: CityName,
  decided: boolean,
): PositionLine[] {
  const kind = p.pick.trade_kind === 'addon' ? 'addon' : 'pick';
  // apart from its city-day (pick not received), a pick says which it is of
  const of = p.pick.parent_not_received ? ` ${name(p.pick.city_id)} ${p.pick.market_date}` : '';
  const head = `${indent}${kind} ${p.pick.pick_id.slice(0, 8)}${of}`;
  const out: PositionLine[] = [
    {
      line: [seg(cell(head, desc)), ...figures(p.mark, SUM_FIGURES)],
      detail: {
        title: `Insurance ${kind} ${p.pick.pick_id}`,
        json: p.pick,
        fields: () => fieldLines(pickFields(p, name, decided)),
      },
    },
  ];
  // legs sit under their pick's text, without the addon's branch mark
  const under = indent.replace('└', ' ');
  for (const l of p.legs) {
    const text = `${under}  ${l.leg.leg} ${l.leg.side} ${l.leg.bucket_label}`;
    out.push({
      line: [seg(cell(text, desc), 'muted'), ...figures(l.mark)],
      detail: {
        title: `Leg ${l.leg.leg} of ${kind} ${p.pick.pick_id}`,
        json: l.leg,
        fields: () => fieldLines(legFields(l.leg, l.mark, p.pick, name)),
      },
    });
  }
  for (const addon of p.addons) out.push(...pickLines(addon, `${indent}  └ `, desc, name, decided));
  return out;
}

/** A city-day: its header (the city, the day, its count and subtotal), then its records, locks, picks and trades. */
function groupLines(g: DayGroup<InsurancePickView, EdgeTradeView>, desc: number, name: CityName): PositionLine[] {
  const { decided } = g;
  const count = `${plural(g.n, 'position')}${g.priced < g.n ? `, ${g.priced} priced` : ''}`;
  const out: PositionLine[] = [
    {
      line: [
        seg(cell(`  ${name(g.city_id)} ${g.date}  ${count}`, desc), undefined, true),
        ...figures(g.mark, SUM_FIGURES, true),
      ],
      detail: null,
    },
  ];
  const at = (text: string) => `    ${text}`;
  for (const s of g.strategies) {
    const r = s.item;
    out.push(
      new LazyLine(
        () => [seg(cell(at(`${cell(s.family, KIND)}${r.side.padEnd(4)}${r.bucket_label}`), desc)), ...figures(s.mark)],
        {
          title: `${s.family} #${r.id}`,
          json: r,
          fields: () => fieldLines(recordFields(s.family, r, s.mark, name, decided)),
        },
      ),
    );
  }
  for (const l of g.locks) {
    const lock = l.item;
    const text = at(`${cell('fusion-lock', KIND)}YES ${lock.bucket_label}  peak ${String(lock.peak_hour).padStart(2)}`);
    out.push(
      new LazyLine(() => [seg(cell(text, desc)), ...figures(l.mark)], {
        title: `Fusion lock ${lock.id}`,
        json: lock,
        fields: () => fieldLines(lockFields(lock, l.mark, name, decided)),
      }),
    );
  }
  for (const pick of g.picks) out.push(...pickLines(pick, '    ', desc, name, decided));
  for (const t of g.trades) {
    const trade = t.item;
    const text = at(`${cell('edge', KIND)}${trade.side.padEnd(4)}${trade.bucket_label} x${trade.entry?.qty ?? '—'}`);
    out.push(
      new LazyLine(() => [seg(cell(text, desc)), ...figures(t.mark)], {
        title: `Edge trade #${trade.engine_trade_id}`,
        json: trade,
        fields: () => fieldLines(tradeFields(trade, t.mark, name, decided)),
      }),
    );
  }
  return out;
}

/**
 * DESIGN 4 "the book's horizon": what the cache holds of a pick it never received, apart from the city-days. An
 * addon is a position held (its legs, stake and P&L, counted apart in the totals); a kill closed one the monitor
 * never saw open, shown with the legs it names and when, so nothing the service said is dropped.
 */
function notReceivedLines(p: PricedBook, desc: number, name: CityName): PositionLine[] {
  const addons = p.picks.filter((x) => x.pick.parent_not_received);
  if (addons.length === 0 && p.killsNotReceived.length === 0) return [];
  const out: PositionLine[] = [gap, { line: line(seg(PICK_NOT_RECEIVED.toUpperCase(), 'warn', true)), detail: null }];
  const decided = dayDecided(p);
  for (const addon of addons) {
    const [head, ...legs] = pickLines(addon, '  ', desc, name, decided(addon.pick.city_id, addon.pick.market_date));
    const parent = `pick ${addon.pick.parent_pick_id?.slice(0, 8)} not received`;
    out.push({ line: [seg(cell(`  ${parent}`, desc), 'warn')], detail: null }, head as PositionLine, ...legs);
  }
  for (const kill of p.killsNotReceived) {
    const at = kill.killed_at === null ? '' : ` at ${utcStamp(Date.parse(kill.killed_at))}`;
    const legs = kill.legs.map((l) => `${l.leg} ${l.bucket_label}`).join(', ');
    const text = `  kill ${kill.pick_id.slice(0, 8)} ${name(kill.city_id)} ${kill.market_date}${at}: ${legs}`;
    out.push({
      line: line(seg(cell(text, desc + 34), 'muted')),
      detail: { title: `Kill of ${kill.pick_id}`, json: kill, fields: () => fieldLines(killFields(kill, name)) },
    });
  }
  return out;
}

/**
 * The Positions pane as lines (issue 45 item 5): the grand total, the city-days still running, then those over
 * (decided, awaiting the service's settlement), each with its subtotal, what is held of picks not received, and the
 * totals by family.
 */
export function positionLines(p: PricedBook, width: number, name: CityName): PositionLine[] {
  // the description takes what the figures (entry, now, stake, P&L: 34 columns) leave
  const desc = Math.max(30, Math.min(70, width - 38));
  const out: PositionLine[] = [{ line: grandTotalLine(p), detail: null }];
  // the book's horizon (DESIGN 4): a day that began before it misses the picks made before it, and says so
  if (p.picksNote !== null) out.push({ line: line(seg(`  ${p.picksNote}`, 'warn')), detail: null });
  const groups = dayGroups(p, dayDecided(p), name);
  const sections = [
    ['LIVE DAYS (today and ahead)', groups.filter((g) => !g.decided), 'live'],
    ['DECIDED DAYS (over: the high is set, the service has yet to settle)', groups.filter((g) => g.decided), 'decided'],
  ] as const;
  for (const [title, days, what] of sections) {
    out.push(gap, heading(title), columns(desc));
    if (days.length === 0) out.push(none(what));
    for (const g of days) out.push(...groupLines(g, desc, name));
  }
  out.push(...notReceivedLines(p, desc, name));
  out.push(gap, ...totalsLines(p).map((l) => ({ line: l, detail: null })));
  return out;
}
