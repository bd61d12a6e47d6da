import type { EdgeTradeView, InsurancePickView } from '../../../cache/index.js';
import type { InsuranceLeg } from '../../../contract/events.js';
import type { FusionLock } from '../../../contract/fusion-locks.js';
import type { StrategyRecord } from '../../../contract/strategies.js';
import type { CityName } from '../../../domain/city-names.js';
import type { Mark, PricedPick } from '../../../domain/position-pnl.js';
import { price, signedUsd, usd } from '../../format/numbers.js';
import { type Line, line, seg, type Tone } from '../../theme.js';

/**
 * What Enter shows of a position (issue 45 item 5): its record as labelled fields, in the order a trader checks them
 * (what and where, the entry, the mark and P&L, the model's reasons, the ids to find it at the service by), with
 * the row as stored one key further. Each kind of position names its own fields.
 */

/** A labelled field, or a heading between groups of them. */
type Field = readonly [label: string, value: string, tone?: Tone] | string;

const LABEL = 16;
const pnlTone = (pnl: number | null): Tone | undefined =>
  pnl === null ? 'muted' : pnl > 0 ? 'good' : pnl < 0 ? 'bad' : undefined;
const num = (n: number | null | undefined, digits = 2): string => (n == null ? '—' : String(Number(n.toFixed(digits))));
const p4 = (n: number | null | undefined): string => (n == null ? '—' : n.toFixed(4));

/** The fields as lines: a heading in bold, a field as its label in a column and its value. */
export function fieldLines(fields: readonly Field[]): Line[] {
  return fields.map((f) =>
    typeof f === 'string'
      ? line(seg(f, 'accent', true))
      : line(seg(`  ${f[0].padEnd(LABEL)}`, 'muted'), seg(f[1], f[2])),
  );
}

/** Where the current price came from, in words. */
const source = (m: Mark): string =>
  m.source === 'm' ? ' (m: newest mkta quote)' : m.source === 'r' ? ' (r: the record’s own mark)' : '';

/** The mark of a position: its current price, what its shares are worth at it, and the P&L. */
const markFields = (m: Mark, units: number | null): Field[] => [
  'NOW',
  ['price', m.current === null ? '— (no quote)' : `${price(m.current)}${source(m)}`],
  ['value', m.current === null || units === null ? '—' : usd(units * m.current)],
  ['P&L', signedUsd(m.pnl), pnlTone(m.pnl)],
];

const day = (cityId: string, date: string, name: CityName, decided: boolean): Field[] => [
  ['city', `${name(cityId)} (${cityId})`],
  ['market day', `${date}${decided ? ' · decided: the day is over, the service settles it' : ' · live'}`],
];

/** A strategy record: its family's model figures under the entry and the mark. */
export function recordFields(family: string, r: StrategyRecord, m: Mark, name: CityName, decided: boolean): Field[] {
  const model: Field[] =
    r.strategy === 'no24'
      ? [
          ['model', r.model],
          ['exact p', p4(r.model_exact_pct)],
          ['predicted high', `${num(r.predicted_max_c)}°C · ${num(r.predicted_max_f)}°F`],
        ]
      : r.strategy === 'yescore'
        ? [
            ['model', r.model],
            ['exact p', p4(r.model_exact_pct)],
            [
              'predicted high',
              `${num(r.predicted_max_c)}°C, corrected ${num(r.corrected_max_c)}°C (bias ${num(r.bias_c)})`,
            ],
            ['edge', p4(r.edge)],
          ]
        : [
            ['entry hour', `${String(r.entry_hour).padStart(2, '0')}:00 local`],
            ['desk', `N(${num(r.mu_c)}, ${num(r.sigma_c)}) °C of ${r.n_models} models`],
            ['model p', p4(r.model_prob)],
            ['edge', p4(r.edge)],
            ['mode', r.mode],
          ];
  return [
    'POSITION',
    ['family', family],
    ...day(r.city_id, r.local_date, name, decided),
    ['bucket', `${r.side} ${r.bucket_label}`],
    'ENTRY',
    ['price', price(m.entry)],
    ['shares', num(r.shares)],
    ['stake', usd(r.stake)],
    ...markFields(m, r.shares),
    'MODEL',
    ...model,
    'SOURCE',
    ['record', `${r.strategy} #${r.id}`],
    ['bucket slug', r.bucket_slug],
    ['outcome', r.outcome ?? 'open'],
  ];
}

export function lockFields(l: FusionLock, m: Mark, name: CityName, decided: boolean): Field[] {
  return [
    'POSITION',
    ['family', 'fusion-locks'],
    ...day(l.city_id, l.local_date, name, decided),
    ['bucket', `YES ${l.bucket_label}`],
    ['peak hour', `${String(l.peak_hour).padStart(2, '0')}:00 local`],
    'ENTRY',
    ['locked at', l.locked_at],
    ['price', price(l.yes_price)],
    ['tokens', num(l.tokens)],
    ['stake', usd(m.stake)],
    ...markFields(m, l.tokens),
    'SOURCE',
    ['lock id', l.id],
    ['bucket slug', l.bucket_slug],
    ['event slug', l.event_slug],
  ];
}

const legText = (leg: InsuranceLeg, m: Mark): string =>
  `${leg.side} ${leg.bucket_label}  ${leg.shares} sh at ${price(leg.snapshot_price)} = ${usd(leg.stake_usd)}` +
  `  now ${m.current === null ? '—' : `${price(m.current)}${m.source ?? ''}`}  P&L ${signedUsd(m.pnl)}`;

export function pickFields(p: PricedPick<InsurancePickView>, name: CityName, decided: boolean): Field[] {
  const pick = p.pick;
  return [
    'POSITION',
    ['family', `insurance ${pick.trade_kind ?? 'pick'}`],
    ...day(pick.city_id, pick.market_date, name, decided),
    ['created at', pick.created_at ?? '—'],
    ['total cost', usd(pick.total_cost_usd)],
    'LEGS',
    ...p.legs.map(({ leg, mark }): Field => [`leg ${leg.leg}`, legText(leg, mark), pnlTone(mark.pnl)]),
    'NOW',
    ['stake', usd(p.mark.stake)],
    ['P&L', signedUsd(p.mark.pnl), pnlTone(p.mark.pnl)],
    ...(p.mark.pnl === null ? [['', 'unpriced: a leg has no quote'] as const] : []),
    ...(p.addons.length ? [['addons', p.addons.map((a) => a.pick.pick_id).join(', ')] as const] : []),
    'SOURCE',
    ['pick id', pick.pick_id],
    ['parent pick', pick.parent_pick_id ?? '—'],
    ['event slug', pick.event_slug ?? '—'],
    ['mkta', pick.mkta_url ?? '—'],
  ];
}

export function legFields(leg: InsuranceLeg, m: Mark, pick: InsurancePickView, name: CityName): Field[] {
  return [
    'POSITION',
    ['leg', `${leg.leg} of pick ${pick.pick_id}`],
    ['city', `${name(pick.city_id)} (${pick.city_id})`],
    ['market day', pick.market_date],
    ['bucket', `${leg.side} ${leg.bucket_label} (${leg.bucket_low} to ${leg.bucket_high})`],
    'ENTRY',
    ['price', price(leg.snapshot_price)],
    ['shares', num(leg.shares)],
    ['stake', usd(leg.stake_usd)],
    ['max slippage', `${leg.max_slippage_bps} bps`],
    ...markFields(m, leg.shares),
    'SOURCE',
    ['bucket slug', leg.bucket_slug],
    ['YES token', leg.token_id_yes],
  ];
}

type Trade = NonNullable<EdgeTradeView['entry']>;
const tradeText = (t: Trade): string =>
  `${t.operation} ${num(t.qty)} at ${price(t.price)} = ${usd(t.total_usd)} · ${t.executed_at} · ${t.reason}`;

export function tradeFields(t: EdgeTradeView, m: Mark, name: CityName, decided: boolean): Field[] {
  return [
    'POSITION',
    ['family', 'edge'],
    ...day(t.city_id, t.market_date, name, decided),
    ['bucket', `${t.side} ${t.bucket_label}`],
    'ENTRY',
    ['entry', t.entry ? tradeText(t.entry) : '— (only the exit arrived)'],
    ...(t.exit ? [['exit', tradeText(t.exit)] as const] : []),
    ['stake', usd(t.entry?.total_usd)],
    ...markFields(m, t.entry?.qty ?? null),
    'SOURCE',
    ['engine trade', `#${t.engine_trade_id}`],
    ['event slug', t.event_slug],
    ['mkta', t.mkta_url],
  ];
}

/** A kill of a pick the cache never received (DESIGN 4 "the book's horizon"): what it closed and when. */
export function killFields(kill: InsurancePickView, name: CityName): Field[] {
  return [
    'KILL OF A PICK NOT RECEIVED',
    ['pick id', kill.pick_id],
    ['city', `${name(kill.city_id)} (${kill.city_id})`],
    ['market day', kill.market_date],
    ['killed at', kill.killed_at ?? '—'],
    ['reason', kill.kill?.reason ?? '—'],
    ['sell at market', kill.kill ? (kill.kill.sell_at_market ? 'yes' : 'no') : '—'],
    'LEGS',
    ...kill.legs.map(
      (l): Field => [`leg ${l.leg}`, `${l.side} ${l.bucket_label}  ${l.shares} sh at ${price(l.snapshot_price)}`],
    ),
  ];
}
