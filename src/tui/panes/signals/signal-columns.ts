import type { Signal, SignalKind } from '../../../cache/index.js';
import type { CityName } from '../../../domain/city-names.js';
import { cellOf, type Column as TableColumn, titleCells } from '../../format/columns.js';
import { price, usd } from '../../format/numbers.js';
import { localClock, utcStamp } from '../../format/time.js';
import { type Line, seg, type Tone } from '../../theme.js';
import { signalBuckets, signalNote } from './signal-text.js';

/** The kind as the trader reads it; a kill is marked in text, never by colour alone. */
export const KIND_LABEL: Record<SignalKind, string> = {
  kill: '!! KILL',
  pick: 'PICK',
  addon: 'ADDON',
  test: 'TEST',
  'edge-exit': 'EDGE EXIT',
  'edge-entry': 'EDGE ENTRY',
  'lock-resolved': 'LOCK SETTLED',
  lock: 'LOCK',
  'svc-max-picks': 'SVC-MAX',
  yescore: 'YESCORE',
  no24: 'NO24',
};

const KIND_TONE: Partial<Record<SignalKind, Tone>> = {
  kill: 'alarm',
  pick: 'accent',
  addon: 'accent',
  'edge-entry': 'good',
  'edge-exit': 'warn',
  lock: 'accent',
};

/** A Signals column; its cells plain unless it says how to colour them (the kind by its tone, the time muted). */
type Column = TableColumn<Signal> & { tone?: (s: Signal) => Tone | undefined; bold?: (s: Signal) => boolean };

const COLUMNS = {
  utc: { title: 'UTC', width: 13, value: (s) => `${s.estimated ? '~' : ' '}${utcStamp(s.at)}`, tone: () => 'muted' },
  local: { title: 'local', width: 6, value: (s) => localClock(s.at, s.tz) },
  // the city's name (signalColumns gives it its names), as wide as the board's
  city: { title: 'city', width: 13, value: (s) => s.city_id },
  date: { title: 'market', width: 11, value: (s) => s.market_date },
  kind: {
    title: 'signal',
    width: 13,
    value: (s) => KIND_LABEL[s.kind],
    tone: (s) => KIND_TONE[s.kind],
    bold: (s) => s.kind === 'kill',
  },
  bucket: { title: 'bucket', width: 22, value: signalBuckets },
  side: { title: 'side', width: 4, value: (s) => s.side ?? '' },
  price: {
    title: 'price',
    width: 12,
    align: 'right',
    value: (s) => (s.prices.length ? s.prices.map(price).join('/') : 'market'),
  },
  stake: { title: 'stake', width: 8, align: 'right', value: (s) => usd(s.stake) },
} satisfies Record<string, Column>;
type ColumnId = keyof typeof COLUMNS;

/** The side with the buckets, as the board reads a bet (`NO 5°C`), where the side has no column of its own. */
const sideBuckets = (s: Signal) => (s.side ? `${s.side} ${signalBuckets(s)}` : signalBuckets(s));

/** Narrower cells where not every column fits: the market's day as MM-DD (the UTC column leaves its year out too). */
const NARROW: Partial<Record<ColumnId, Column>> = {
  date: { title: 'market', width: 6, value: (s) => s.market_date.slice(5) },
  kind: { ...COLUMNS.kind, width: 12 },
  price: { ...COLUMNS.price, width: 11 },
};

const LEAD = 2; // the selection mark's column and a space
const gap = ' ';
const WIDE: ColumnId[] = ['utc', 'local', 'city', 'date', 'kind', 'bucket', 'side', 'price', 'stake'];
/** The note shows only where at least this much of it fits: fewer columns would read as a row of lone `…`. */
const NOTE_MIN = 6;

const span = (columns: readonly Column[]) => columns.reduce((n, c) => n + c.width + gap.length, LEAD);

/**
 * The columns that fit `width`: every column where they all fit; below that local time goes, the side joins the
 * bucket (`NO 5°C`, as the board writes a bet) and the bucket takes what is left (8 to 22), the stake last to come
 * back; under 70 the market's day and the price go too. The city by its name (`New York City`), as the board names
 * it.
 */
export function signalColumns(width: number, name: CityName): Column[] {
  const city = { ...COLUMNS.city, value: (s) => name(s.city_id) } as Column;
  const pick = (id: ColumnId): Column => (id === 'city' ? city : (NARROW[id] ?? COLUMNS[id]));
  const wide = WIDE.map((id): Column => (id === 'city' ? city : COLUMNS[id]));
  if (span(wide) <= width) return wide;
  const order: ColumnId[] =
    width >= 70 ? ['utc', 'city', 'date', 'kind', 'bucket', 'price'] : ['utc', 'city', 'kind', 'bucket'];
  const room = width - span(order.filter((id) => id !== 'bucket').map(pick)) - gap.length;
  const bucket: Column = { title: 'bucket', width: Math.min(22, Math.max(8, room)), value: sideBuckets };
  const columns = order.map((id) => (id === 'bucket' ? bucket : pick(id)));
  const stake: Column = COLUMNS.stake;
  return width >= 70 && room - bucket.width >= stake.width + gap.length ? [...columns, stake] : columns;
}

/** Whether the note has room after `columns` in `width` (see NOTE_MIN). */
const noteFits = (columns: readonly Column[], width: number) => width - span(columns) >= NOTE_MIN;

export function signalHeader(columns: Column[], width: number): Line {
  const text = titleCells(columns).join(gap);
  return [seg(' '.repeat(LEAD)), seg(noteFits(columns, width) ? `${text}${gap}note` : text, 'muted', true)];
}

export function signalLine(s: Signal, columns: Column[], width: number): Line {
  const out: Line = columns.map((c) => seg(cellOf(c, s) + gap, c.tone?.(s), c.bold?.(s)));
  if (noteFits(columns, width)) out.push(seg(signalNote(s), s.kind === 'kill' ? 'alarm' : 'muted'));
  return out;
}
