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

type Column = TableColumn<Signal>;

const COLUMNS: Record<string, Column> = {
  utc: { title: 'UTC', width: 13, value: (s) => `${s.estimated ? '~' : ' '}${utcStamp(s.at)}` },
  local: { title: 'local', width: 6, value: (s) => localClock(s.at, s.tz) },
  // the city's name (signalColumns gives it its names), as wide as the board's
  city: { title: 'city', width: 13, value: (s) => s.city_id },
  date: { title: 'market', width: 11, value: (s) => s.market_date },
  kind: { title: 'signal', width: 13, value: (s) => KIND_LABEL[s.kind] },
  bucket: { title: 'bucket', width: 22, value: signalBuckets },
  side: { title: 'side', width: 4, value: (s) => s.side ?? '' },
  price: {
    title: 'price',
    width: 12,
    align: 'right',
    value: (s) => (s.prices.length ? s.prices.map(price).join('/') : 'market'),
  },
  stake: { title: 'stake', width: 8, align: 'right', value: (s) => usd(s.stake) },
};

/**
 * The columns that fit: the note and local time go first on a narrow terminal, the bucket narrows. The city by its
 * name (`New York City`), as the board names it.
 */
export function signalColumns(width: number, name: CityName): Column[] {
  const order =
    width >= 100
      ? ['utc', 'local', 'city', 'date', 'kind', 'bucket', 'side', 'price', 'stake']
      : width >= 70
        ? ['utc', 'city', 'date', 'kind', 'bucket', 'price', 'stake']
        : ['utc', 'city', 'kind', 'bucket'];
  return order.map(
    (id) => (id === 'city' ? { ...COLUMNS.city, value: (s) => name(s.city_id) } : COLUMNS[id]) as Column,
  );
}

const gap = ' ';

export function signalHeader(columns: Column[]): Line {
  const text = titleCells(columns).join(gap);
  return [seg('  '), seg(`${text}${gap}note`, 'muted', true)];
}

export function signalLine(s: Signal, columns: Column[]): Line {
  const tone = KIND_TONE[s.kind];
  const out: Line = columns.map((c) => {
    const text = cellOf(c, s) + gap;
    return c === COLUMNS.kind ? seg(text, tone, s.kind === 'kill') : seg(text, c === COLUMNS.utc ? 'muted' : undefined);
  });
  out.push(seg(signalNote(s), s.kind === 'kill' ? 'alarm' : 'muted'));
  return out;
}
