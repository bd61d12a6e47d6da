import type { BoardFlag, BoardRow, LadderCell } from '../../../board/board-row.js';
import type { Behind } from '../../../board/same-instant.js';
import { type Bucket, OPEN_HIGH, OPEN_LOW } from '../../../domain/buckets.js';
import { signedUsd, usd } from '../../format/numbers.js';
import { cell } from '../../format/text.js';
import { age } from '../../format/time.js';
import { type Line, seg, type Tone } from '../../theme.js';

/** A board column: its title and width, its text and tone for a row, and how soon it goes on a narrow terminal. */
interface BoardColumn {
  id: string;
  title: string;
  width: number;
  /** A narrower width it can still show itself in (the ladder shortens, the best edge abbreviates, flags shorten). */
  min?: number;
  /** When a column shown at `min` takes its full `width`: a priority like `priority`, after the columns it must not push out. */
  grow?: number;
  align?: 'left' | 'right';
  /** Lower stays longer: the city, the best edge and the flags go last (the order is under COLUMNS). */
  priority: number;
  text(row: BoardRow, width: number): string;
  tone?(row: BoardRow): Tone | undefined;
}

/** `≤61°F`, `≥80°F` for the tails, the venue's label otherwise: a bucket in a few characters. */

/** Why a row shows no edge while it has prices and a forecast (board/same-instant.ts). */
const BEHIND_TEXT: Record<Behind, string> = { model: 'model behind', prices: 'stale prices' };
export function shortLabel(b: Bucket): string {
  const unit = b.label.match(/°[FC]/)?.[0] ?? '';
  if (b.low === OPEN_LOW) return `≤${b.high}${unit}`;
  if (b.high === OPEN_HIGH) return `≥${b.low}${unit}`;
  return b.label;
}

// `·` practically dead: alive by the rule, under 2% since the peak began (DESIGN 4)
const GLYPH: Record<LadderCell['state'], string> = { dead: 'x', faint: '·', alive: '-', favourite: '*' };
const glyph = (c: LadderCell) => (c.held ? `[${GLYPH[c.state]}]` : GLYPH[c.state]);

/**
 * The ladder of a day's buckets, lowest first: `x` dead, `·` practically dead, `-` alive, `*` the favourite, `[ ]`
 * around a held one. When it is wider than `width`, the buckets around the favourite stay, and `‹` / `›` say buckets
 * were cut on that side.
 */
export function ladderText(cells: readonly LadderCell[], width: number): string {
  const full = cells.map(glyph).join('');
  if (full.length <= width || cells.length === 0) return full;
  const centre = Math.max(
    0,
    cells.findIndex((c) => c.state === 'favourite'),
  );
  let lo = centre;
  let hi = centre;
  const size = (a: number, b: number) =>
    cells
      .slice(a, b + 1)
      .map(glyph)
      .join('').length +
    (a > 0 ? 1 : 0) +
    (b < cells.length - 1 ? 1 : 0);
  for (let grew = true; grew; ) {
    grew = false;
    if (hi + 1 < cells.length && size(lo, hi + 1) <= width) {
      hi++;
      grew = true;
    }
    if (lo > 0 && size(lo - 1, hi) <= width) {
      lo--;
      grew = true;
    }
  }
  const text = cells
    .slice(lo, hi + 1)
    .map(glyph)
    .join('');
  return `${lo > 0 ? '‹' : ''}${text}${hi < cells.length - 1 ? '›' : ''}`;
}

const points = (n: number) => `${n >= 0 ? '+' : ''}${(n * 100).toFixed(1)}`;

/** A row's best edge in words: `+6.2 YES 70-71°F 0.41 mkta`; `narrow`: `+6.2 YES 70-71°F .41a`. */
export function bestEdgeText(r: Pick<BoardRow, 'best'>, narrow = false): string {
  if (!r.best?.bucket.bucket) return '';
  const { edge, side, price, venue } = r.best;
  const head = `${points(edge)} ${side} ${shortLabel(r.best.bucket.bucket)}`;
  return narrow
    ? `${head} ${price.toFixed(2).replace(/^0/, '')}${venue.slice(-1)}`
    : `${head} ${price.toFixed(2)} ${venue}`;
}

/**
 * A row without a best edge, in words. While the model is behind a venue (a report not fetched yet, a first fill):
 * the last edge the board could compare, with its age on the board's clock (`+2.1 YES 70-71°F 4m ago`, narrow `+2.1
 * 4m ago`), dimmed, never alerted nor recorded; without one, which side the board waits for. A day priced against
 * comparable prices with nothing positive at an offer: `no edge` (DESIGN 4). No forecast, no price, CHECK or a day
 * over: `—`.
 */
function noEdgeText(r: BoardRow, width: number): string {
  const last = r.behind === 'model' ? r.lastComparable : null;
  if (last?.best.bucket.bucket) {
    const ago = `${age(last.ageMs)} ago`;
    const full = `${points(last.best.edge)} ${last.best.side} ${shortLabel(last.best.bucket.bucket)} ${ago}`;
    return full.length <= width ? full : `${points(last.best.edge)} ${ago}`;
  }
  if (r.behind && r.forecast) return BEHIND_TEXT[r.behind];
  const quoted = r.buckets.some((b) => b.mkta || b.mktb);
  return r.forecast && quoted && !r.check && r.settled === null ? 'no edge' : '—';
}
const deg = (n: number) => n.toFixed(1);

export const LADDER_MIN = 7;
export const LADDER_MAX = 17;

/**
 * A flag in a few characters for a narrow screen: typed over every flag, so a new flag must name its short form. The
 * short forms are the words a trader already reads (`BRK` the one abbreviation: BREAKTHROUGH is 12 characters).
 */
const SHORT_FLAG: Record<BoardFlag, string> = {
  BREAKTHROUGH: 'BRK',
  DEAD: 'DEAD',
  KILL: 'KILL',
  CROSS: 'CROSS',
  CHECK: 'CHECK',
};

/** A row's flags in full words, or short (`BRK DEAD KILL`); a flag the table does not know stays as it is. */
export function flagsText(flags: readonly string[], short: boolean): string {
  return flags.map((f) => (short ? (SHORT_FLAG[f as BoardFlag] ?? f) : f)).join(' ');
}

/**
 * The board's columns, in the order they stand on a row. What a narrow terminal drops, by `priority` (lower stays
 * longer), and why:
 *
 *   0 city, 1 best edge (abbreviated: `.28b`), 2 flags (short: `BRK KILL`): which market, what to trade, what to act
 *     on now (a kill, a dead held bucket); they never go.
 *   3 forecast, 4 P&L: the desk's view the edge is priced from, and what the book stands at. They stay at 80 and 120
 *     columns, before the flags' full words and before the ladder: a trader acts on them, the rest is context.
 *   5 ladder (7 wide at least): where the day can still settle.
 *   6 high next, 7 phase: how far the METAR high must rise, and where the day is.
 *   then the widths: the ladder whole (7.1), the best edge in words (`0.28 mktb`, 7.2).
 *   8 local: the city's clock (the board's default order reads it, so its rows are in local time order even without
 *     the column).
 *   then the flags' full words (8.5): `BREAKTHROUGH` where the room allows, once every column above is shown.
 *   9 staked, 10 spread: what the P&L and the forecast already say most of.
 *
 * At 120 columns everything up to local stays (the flags short when their words would push local out), at 80 the
 * city, forecast, ladder, best edge, P&L and short flags (a third flag on a row leaves no room for the ladder).
 */
const COLUMNS: BoardColumn[] = [
  // a city's next market day sits under its own row (board-sort.ts): named by what it is, its time is the row above's
  { id: 'city', title: 'city', width: 13, priority: 0, text: (r) => (r.tomorrow ? '  tomorrow' : r.name) },
  {
    id: 'local',
    title: 'local',
    width: 5,
    align: 'right',
    priority: 8,
    // `-1d 19:00`: the evening before the market day (a US day while Europe trades), `+1d` past its midnight
    text: (r) =>
      r.tomorrow ? '' : r.dayOffset ? `${r.dayOffset > 0 ? '+' : ''}${r.dayOffset}d ${r.localTime}` : r.localTime,
  },
  { id: 'phase', title: 'phase', width: 7, priority: 7, text: (r) => r.phase },
  {
    id: 'forecast',
    title: 'forecast',
    width: 10,
    align: 'right',
    priority: 3,
    text: (r) => (r.shown ? `${deg(r.shown.mu)}±${deg(r.shown.sigma)}°${r.unit}` : '—'),
  },
  {
    id: 'spread',
    title: 'spread',
    width: 6,
    align: 'right',
    priority: 10,
    text: (r) => (r.spread === null ? '—' : deg(r.spread)),
  },
  {
    id: 'high',
    title: 'high next',
    width: 9,
    align: 'right',
    priority: 6,
    // the METAR high so far in the market's unit, and DESIGN 4's next: how far it must rise before a higher bucket
    text: (r) =>
      r.runningHigh === null ? '—' : `${deg(r.runningHigh)} ${r.next === null ? '  —' : `+${deg(r.next)}`}`,
  },
  {
    id: 'ladder',
    title: 'ladder',
    width: LADDER_MAX,
    min: LADDER_MIN,
    grow: 7.1,
    priority: 5,
    text: (r, width) => (r.ladder.length ? ladderText(r.ladder, width) : '—'),
  },
  {
    id: 'edge',
    title: 'best edge',
    width: 27,
    min: 22,
    grow: 7.2,
    priority: 1,
    text: (r, width) => {
      if (!r.best?.bucket.bucket) return noEdgeText(r, width);
      // narrow: `+6.2 YES 70-71°F .41a`, the venue by its letter
      return width >= 27 ? bestEdgeText(r) : bestEdgeText(r, true);
    },
    tone: (r) => (r.best && r.best.edge > 0 ? 'good' : 'muted'),
  },
  {
    id: 'staked',
    title: 'staked',
    width: 7,
    align: 'right',
    priority: 9,
    text: (r) => (r.positions ? usd(r.exposure) : '—'),
  },
  {
    id: 'pnl',
    title: 'P&L',
    width: 8,
    align: 'right',
    priority: 4,
    text: (r) => (r.positions ? signedUsd(r.pnl) : '—'),
    tone: (r) => (r.pnl === null ? 'muted' : r.pnl > 0 ? 'good' : r.pnl < 0 ? 'bad' : undefined),
  },
  {
    id: 'flags',
    title: 'flags',
    // as wide as the widest row's words, `min` its short form (boardColumns sizes both)
    width: 5,
    min: 5,
    grow: 8.5,
    priority: 2,
    text: (r) => flagsText(r.flags, true),
    // a kill is the alarm, a warning about the day (CHECK, BREAKTHROUGH, DEAD) is bad news; CROSS alone is a price to
    // look at on both venues, not a fault of the day
    tone: (r) =>
      r.flags.includes('KILL')
        ? 'alarm'
        : r.flags.some((f) => f !== 'CROSS')
          ? 'bad'
          : r.flags.length
            ? 'warn'
            : undefined,
  },
];

/**
 * Columns by priority while they fit, one space before each: each column first at its `min`, and a column that has
 * one takes its full width at its `grow` priority if the room is left then. What is left over widens the ladder.
 */
function placeColumns(columns: readonly BoardColumn[], width: number): Map<string, number> {
  const claims = columns
    .flatMap((c) => {
      const least = c.min ?? c.width;
      const base = { column: c, at: c.priority, takes: least + 1, width: least, grows: false };
      return c.grow !== undefined && least < c.width
        ? [base, { column: c, at: c.grow, takes: c.width - least, width: c.width, grows: true }]
        : [base];
    })
    .sort((a, b) => a.at - b.at);
  const widths = new Map<string, number>();
  let left = width;
  for (const { column, takes, width: w, grows } of claims) {
    if (takes > left || (grows && !widths.has(column.id))) continue;
    widths.set(column.id, w);
    left -= takes;
  }
  const ladder = columns.find((c) => c.id === 'ladder');
  const shown = widths.get('ladder');
  if (ladder && shown !== undefined) widths.set('ladder', Math.min(ladder.width, shown + left));
  return widths;
}

/**
 * The columns a width holds, by priority (COLUMNS says which go first and why). The flags are as wide as the widest
 * row's words, or its short form where the words do not fit; the ladder at most as wide as the longest ladder.
 */
export function boardColumns(rows: readonly BoardRow[], width: number): BoardColumn[] {
  const widest = (short: boolean) => Math.max(5, ...rows.map((r) => flagsText(r.flags, short).length));
  const [flagsWords, flagsShort] = [widest(false), widest(true)];
  // the local time widens to `-1d 19:00` only while a row is off its market day
  const localWidth = rows.some((r) => r.dayOffset && !r.tomorrow) ? 9 : 5;
  const ladderFull = Math.min(LADDER_MAX, Math.max(LADDER_MIN, ...rows.map((r) => ladderText(r.ladder, 99).length)));
  const sized = COLUMNS.map((c): BoardColumn => {
    if (c.id === 'flags')
      return { ...c, width: flagsWords, min: flagsShort, text: (r, w) => flagsText(r.flags, w < flagsWords) };
    if (c.id === 'ladder') return { ...c, width: ladderFull };
    if (c.id === 'local') return { ...c, width: localWidth };
    return c;
  });
  const widths = placeColumns(sized, width);
  return sized.filter((c) => widths.has(c.id)).map((c) => ({ ...c, width: widths.get(c.id) as number }));
}

/** The title row. */
export function boardTitle(columns: readonly BoardColumn[]): Line {
  return [seg(columns.map((c) => cell(c.title, c.width, c.align)).join(' '), 'muted')];
}

/** A row of the board in the chosen columns, flags and the best edge in words and tone. */
export function boardLine(row: BoardRow, columns: readonly BoardColumn[]): Line {
  const out: Line = [];
  columns.forEach((c, i) => {
    const text = cell(c.text(row, c.width), c.width, c.align);
    out.push(seg(`${i ? ' ' : ''}`), seg(text, c.tone?.(row), c.id === 'flags'));
  });
  return out;
}
